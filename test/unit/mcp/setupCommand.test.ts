import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseSetupArguments } from '../../../src/mcp/setup/setupArguments';
import { connectGuide } from '../../../src/vscode/mcp/connectGuide';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const SERVER = path.join(repoRoot, 'dist/mcp.js');
const TRUST_NOTE = 'Claude Code applies a project\'s allow rules only once you accepted its trust dialog in the folder: start claude there once and accept it. Until then a single `claude -p` needs --allowedTools mcp__readgate.';

function run(script: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The `claude mcp add` lines a run printed. */
const addLines = (stdout: string): string[] => stdout.split('\n').filter((line) => line.trimStart().startsWith('claude mcp add ')).map((line) => line.trim());

suite('setup claude-code (dist/mcp-bridge.js and dist/mcp.js in child processes)', () => {
  test('the bridge, in a fresh folder: writes .claude/settings.json, prints each change and the claude mcp add line; a second run changes nothing', () => {
    const project = makeTempDir();
    const file = path.join(project, '.claude', 'settings.json');
    const first = run(BRIDGE, ['setup', 'claude-code'], project);
    assert.strictEqual(first.status, 0, first.stderr);
    assert.strictEqual(
      first.stdout,
      [
        `Wrote ${file}:`,
        ...['allowed mcp__readgate', 'denied Edit', 'denied Write', 'denied NotebookEdit', 'added the PreToolUse hook', 'added the SubagentStop hook', 'added the PreCompact hook', 'added the SessionStart hook'].map((line) => `  ${line}`),
        '',
        `Next, in ${project}, add ReadGate as the project's MCP server (this writes .mcp.json):`,
        '',
        `  claude mcp add --scope project readgate -- node ${BRIDGE}`,
        '',
        TRUST_NOTE,
        '',
      ].join('\n'),
    );
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.endsWith('}\n') && text.startsWith('{\n  "permissions": {\n    "allow": [\n      "mcp__readgate"'), text);
    const settings = JSON.parse(text);
    assert.deepStrictEqual(settings.hooks.PreCompact, [{ hooks: [{ type: 'command', command: `node ${BRIDGE} hook`, timeout: 10 }] }]);
    assert.strictEqual(settings.hooks.PreToolUse[0].hooks[0].command, `node ${BRIDGE} hook --compaction-hooked`);
    const inode = fs.statSync(file).ino;
    const second = run(BRIDGE, ['setup', 'claude-code'], project);
    assert.strictEqual(second.status, 0, second.stderr);
    assert.strictEqual(second.stdout.split('\n')[0], `${file}: already set up: nothing to change`);
    assert.deepStrictEqual(addLines(second.stdout), [`claude mcp add --scope project readgate -- node ${BRIDGE}`]);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), text);
    assert.strictEqual(fs.statSync(file).ino, inode, 'the file was rewritten');
    assert.deepStrictEqual(fs.readdirSync(path.join(project, '.claude')), ['settings.json'], 'a temp file was left');
  });

  test('a bridge installed elsewhere (a path with a space) names itself, quoted for sh, in the hooks and the claude mcp add line; --project from another folder', () => {
    const home = makeTempDir();
    const installed = path.join(home, 'Read Gate', 'mcp-bridge.js');
    fs.mkdirSync(path.dirname(installed));
    fs.copyFileSync(BRIDGE, installed);
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    const result = run(installed, ['setup', 'claude-code', '--project', 'project'], home);
    assert.strictEqual(result.status, 0, result.stderr);
    const quoted = `'${installed}'`;
    assert.deepStrictEqual(addLines(result.stdout), [`claude mcp add --scope project readgate -- node ${quoted}`]);
    const settings = JSON.parse(fs.readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
    assert.strictEqual(settings.hooks.SessionStart[0].hooks[0].command, `node ${quoted} hook`);
    // The hook command is one the shell runs as that script (here with --help, as `hook` is not the setup's to test).
    const viaShell = spawnSync('sh', ['-c', settings.hooks.SessionStart[0].hooks[0].command.replace(/ hook$/, ' setup --help')], { encoding: 'utf8' });
    assert.match(viaShell.stdout, /^Usage: node mcp-bridge\.js setup <target>/);
  });

  test('a user\'s settings file is merged, keeping their entries and the file\'s mode; .mcp.json that already starts ReadGate is said so', () => {
    const project = makeTempDir();
    const file = path.join(project, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ model: 'opus', permissions: { allow: ['Edit', 'Bash(npm test)'] } }), { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { readgate: { type: 'stdio', command: 'node', args: [BRIDGE], env: {} } } }));
    const result = run(BRIDGE, ['setup', 'claude-code'], project);
    assert.strictEqual(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Note: your allow rule "Edit" stays, but Claude Code applies deny rules first: Edit stays denied\.$/m);
    assert.match(result.stdout, new RegExp(`^${path.join(project, '.mcp.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} already starts ReadGate this way \\(nothing to run\\); it was added with:$`, 'm'));
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepStrictEqual(Object.keys(settings), ['model', 'permissions', 'hooks']);
    assert.deepStrictEqual(settings.permissions, { allow: ['Edit', 'Bash(npm test)', 'mcp__readgate'], deny: ['Edit', 'Write', 'NotebookEdit'] });
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
  });

  test('--dry-run prints the resulting file and changes nothing', () => {
    const fresh = makeTempDir();
    const dry = run(BRIDGE, ['setup', 'claude-code', '--dry-run'], fresh);
    assert.strictEqual(dry.status, 0, dry.stderr);
    assert.ok(!fs.existsSync(path.join(fresh, '.claude')), 'the dry run created .claude');
    assert.match(dry.stdout, /^Would write .*settings\.json \(--dry-run: nothing was written\):\n  allowed mcp__readgate\n/);
    const printed = /\n\n(\{\n[\s\S]*?\n\})\n/.exec(dry.stdout);
    assert.ok(printed, dry.stdout);
    assert.strictEqual(run(BRIDGE, ['setup', 'claude-code'], fresh).status, 0);
    assert.strictEqual(`${printed[1]}\n`, fs.readFileSync(path.join(fresh, '.claude', 'settings.json'), 'utf8'), 'the dry run printed another file than the run wrote');
    const existing = makeTempDir();
    const file = path.join(existing, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    const before = '{ "model": "opus" }';
    fs.writeFileSync(file, before);
    assert.strictEqual(run(BRIDGE, ['setup', 'claude-code', '--dry-run'], existing).status, 0);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), before);
  });

  test('a file that is not JSON, or JSON of the wrong shape, is refused with exit 2, named, and left byte-identical', () => {
    const project = makeTempDir();
    const file = path.join(project, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    for (const [content, problem] of [
      ['{ "permissions": { "allow": ["mcp__readgate"], } // trailing comma\n', /is not valid JSON \(/],
      ['{ "permissions": { "deny": "Edit" } }', /is not a settings file this can merge: "permissions\.deny" is not a list of strings/],
      ['{ "hooks": { "PreCompact": { "hooks": [] } } }', /"hooks\.PreCompact" is not a list/],
    ] as const) {
      fs.writeFileSync(file, content);
      for (const [script, args] of [[BRIDGE, ['setup', 'claude-code']], [SERVER, ['setup', 'claude-code', '--root', project]]] as const) {
        const result = run(script, [...args], project);
        assert.strictEqual(result.status, 2, result.stdout);
        assert.ok(result.stderr.includes(file), result.stderr);
        assert.match(result.stderr, problem);
        assert.match(result.stderr, /Nothing was changed/);
        assert.strictEqual(result.stdout, '');
        assert.strictEqual(fs.readFileSync(file, 'utf8'), content);
      }
    }
    assert.deepStrictEqual(fs.readdirSync(path.dirname(file)), ['settings.json']);
  });

  test('dist/mcp.js: the project is the first root; the hooks run dist/mcp.js hook; the claude mcp add line starts the server with the options given, shell-quoted', () => {
    const base = makeTempDir();
    const project = path.join(base, 'my project');
    fs.mkdirSync(project);
    fs.mkdirSync(path.join(base, 'shared'));
    const result = run(SERVER, ['setup', 'claude-code', '--root', 'my project', '--root=shared', '--deny', '**/.env*', '--max-read-chars', '20000', '--history', '.history'], base);
    assert.strictEqual(result.status, 0, result.stderr);
    assert.deepStrictEqual(addLines(result.stdout), [`claude mcp add --scope project readgate -- node ${SERVER} --root '${project}' --root ${path.join(base, 'shared')} --deny '**/.env*' --max-read-chars 20000 --history ${path.join(base, '.history')}`]);
    assert.ok(result.stdout.startsWith(`Wrote ${path.join(project, '.claude', 'settings.json')}:\n`), result.stdout);
    assert.ok(result.stdout.endsWith(`${TRUST_NOTE}\n`));
    const settings = JSON.parse(fs.readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8'));
    assert.strictEqual(settings.hooks.PreCompact[0].hooks[0].command, `node ${SERVER} hook`);
    assert.ok(!fs.existsSync(path.join(base, '.claude')));
    const again = run(SERVER, ['setup', 'claude-code', '--root', project], base);
    assert.match(again.stdout, /already set up: nothing to change/);
  });

  test('errors: an unknown target lists the known ones; a server option it cannot pass on, a missing root or project folder; --help', () => {
    const cwd = makeTempDir();
    const cases: [string, string[], RegExp][] = [
      [BRIDGE, ['setup', 'gemini'], /Unknown set-up target "gemini"\. Known: claude-code, codex, gemini-cli, qwen-code\./],
      [SERVER, ['setup', 'gemini', '--root', '.'], /Unknown set-up target "gemini"\. Known: claude-code, codex, gemini-cli, qwen-code\./],
      [BRIDGE, ['setup'], /Name what to set up: claude-code, codex, gemini-cli, qwen-code\./],
      [SERVER, ['setup', 'claude-code'], /Name at least one folder .* --root/],
      [SERVER, ['setup', 'claude-code', '--root', '.', '--forget'], /--forget is not an option of setup/],
      [SERVER, ['setup', 'claude-code', '--root', '.', '--max-read-chars', '10'], /from 2000 to 500000/],
      [BRIDGE, ['setup', 'claude-code', '--project', 'missing'], /missing is not a folder/],
      [BRIDGE, ['setup', 'claude-code', '--list'], /Unknown argument "--list"/],
    ];
    for (const [script, args, message] of cases) {
      const result = run(script, args, cwd);
      assert.strictEqual(result.status, 2, `${args.join(' ')}: ${result.stdout}`);
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.deepStrictEqual(fs.readdirSync(cwd), []);
    const help = run(BRIDGE, ['setup', 'claude-code', '--help'], cwd);
    assert.strictEqual(help.status, 0);
    assert.match(help.stdout, /^Usage: node mcp-bridge\.js setup claude-code \[--own-tools\] \[--project <dir>\] \[--dry-run\]\n/);
    assert.match(run(SERVER, ['setup', '--help'], cwd).stdout, /Targets:\n {2}claude-code {3}Claude Code: /);
    assert.match(run(SERVER, ['--help'], cwd).stdout, /node dist\/mcp\.js setup claude-code\|codex --root <dir>/);
  });

  test('the Connect guide\'s Claude Code lines: its setup line, run by sh in the project, prints exactly its claude mcp add line', () => {
    const [setup, add] = connectGuide({ bridgePath: BRIDGE, headlessPath: SERVER }).find((section) => section.id === 'claude-code')!.blocks;
    const project = makeTempDir();
    const result = spawnSync('sh', ['-c', setup.text], { cwd: project, encoding: 'utf8' });
    assert.strictEqual(result.status, 0, result.stderr);
    assert.deepStrictEqual(addLines(result.stdout), [add.text]);
    assert.ok(fs.existsSync(path.join(project, '.claude', 'settings.json')));
  });

  test('the arguments, parsed: --project (or the working folder) for the bridge; the server\'s options normalized for its launch', () => {
    const targets = ['claude-code'];
    assert.deepStrictEqual(parseSetupArguments(['claude-code'], 'bridge', '/w', targets), { kind: 'run', target: 'claude-code', project: '/w', dryRun: false, user: false, ownTools: false, args: [] });
    assert.deepStrictEqual(parseSetupArguments(['claude-code', '--project=p', '--dry-run'], 'bridge', '/w', targets), { kind: 'run', target: 'claude-code', project: '/w/p', dryRun: true, user: false, ownTools: false, args: [] });
    assert.deepStrictEqual(parseSetupArguments(['claude-code', '--own-tools'], 'bridge', '/w', targets), { kind: 'run', target: 'claude-code', project: '/w', dryRun: false, user: false, ownTools: true, args: [] });
    assert.deepStrictEqual(parseSetupArguments(['claude-code', '--root', 'p', '--placeholders', '--no-dedup'], 'server', '/w', targets), { kind: 'run', target: 'claude-code', project: '/w/p', dryRun: false, user: false, ownTools: false, args: ['--root', '/w/p', '--placeholders', '--no-dedup'] });
    assert.deepStrictEqual(parseSetupArguments(['--help'], 'server', '/w', targets), { kind: 'help' });
    assert.deepStrictEqual(parseSetupArguments(['claude-code', '-h'], 'bridge', '/w', targets), { kind: 'help', target: 'claude-code' });
  });
});
