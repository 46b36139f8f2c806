import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'smol-toml';
import { mergeCodexConfig } from '../../../src/mcp/setup/codexConfig';
import { connectGuide } from '../../../src/vscode/mcp/connectGuide';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const SERVER = path.join(repoRoot, 'dist/mcp.js');

function run(script: string, args: string[], cwd: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const TABLE = (args: string[], timeout = 600): string =>
  ['[mcp_servers.readgate]', 'command = "node"', `args = [${args.map((each) => JSON.stringify(each)).join(', ')}]`, `tool_timeout_sec = ${timeout}`, 'default_tools_approval_mode = "approve"', ''].join('\n');

const USERS = `# my Codex settings
model = "gpt-5.5" # the one I like

[mcp_servers.other]
command = "other-server"
args = ["--flag"] # keep

# profiles below
[profiles.fast]
model = "gpt-5.5-mini"
`;

suite('setup codex (dist/mcp-bridge.js and dist/mcp.js in child processes, real temp files)', () => {
  test('a fresh project: writes .codex/config.toml with ReadGate\'s table and says Codex reads it only in a trusted project; a second run changes nothing', () => {
    const project = makeTempDir();
    const file = path.join(project, '.codex', 'config.toml');
    const first = run(SERVER, ['setup', 'codex', '--root', '.'], project);
    assert.strictEqual(first.status, 0, first.stderr);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), TABLE([SERVER, '--root', project]));
    assert.ok(first.stdout.startsWith(`Wrote ${file}:\n  added the [mcp_servers.readgate] table\n    command = "node"\n`), first.stdout);
    assert.match(first.stdout, /default_tools_approval_mode = "approve"/);
    assert.match(first.stdout, /only in a project you trust/);
    assert.match(first.stdout, /open \/hooks in codex and trust them/);
    const inode = fs.statSync(file).ino;
    const second = run(SERVER, ['setup', 'codex', '--root', '.'], project);
    assert.strictEqual(second.status, 0, second.stderr);
    assert.strictEqual(second.stdout.split('\n')[0], `${file}: already set up: nothing to change`);
    assert.strictEqual(fs.statSync(file).ino, inode, 'the file was rewritten');
    assert.deepStrictEqual(fs.readdirSync(path.join(project, '.codex')), ['config.toml'], 'a temp file or hooks were left');
  });

  test('--user merges $CODEX_HOME/config.toml: the user\'s tables, keys, comments and order stay byte for byte, ReadGate\'s table goes at the end', () => {
    const codexHome = makeTempDir();
    const file = path.join(codexHome, 'config.toml');
    fs.writeFileSync(file, USERS, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    const result = run(BRIDGE, ['setup', 'codex', '--user'], makeTempDir(), { CODEX_HOME: codexHome });
    assert.strictEqual(result.status, 0, result.stderr);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), `${USERS}\n${TABLE([BRIDGE])}`);
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
    assert.doesNotMatch(result.stdout, /only in a project you trust/);
  });

  test('an existing ReadGate table: only its stale keys change, in place; the user\'s own keys, a longer timeout and comments stay', () => {
    const project = makeTempDir();
    const file = path.join(project, '.codex', 'config.toml');
    fs.mkdirSync(path.dirname(file));
    const before = `${USERS}\n[mcp_servers.readgate]\n# ReadGate\ncommand = "node"\nargs = [\n  "/old/mcp-bridge.js", # moved since\n]\ntool_timeout_sec = 1800\nenv = { READGATE_HOME = "/h" }\n\n# last\n[tui]\nnotifications = true\n`;
    fs.writeFileSync(file, before);
    const result = run(BRIDGE, ['setup', 'codex'], project);
    assert.strictEqual(result.status, 0, result.stderr);
    const expected = before.replace('[\n  "/old/mcp-bridge.js", # moved since\n]', JSON.stringify([BRIDGE])).replace('env = { READGATE_HOME = "/h" }\n', 'env = { READGATE_HOME = "/h" }\ndefault_tools_approval_mode = "approve"\n');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), expected);
    assert.match(result.stdout, /set args = \[.*\] in \[mcp_servers.readgate\] \(was \["\/old\/mcp-bridge.js"\]\)/);
    assert.match(result.stdout, /added default_tools_approval_mode = "approve"/);
    assert.strictEqual((parse(expected) as { mcp_servers: { readgate: { tool_timeout_sec: number } } }).mcp_servers.readgate.tool_timeout_sec, 1800);
  });

  test('a file that is not valid TOML, or whose ReadGate server is an inline table, is refused untouched (exit 2)', () => {
    for (const [text, why] of [
      ['model = "a"\nargs = [\n', /is not valid TOML \(.* at line 3, column 1\)/],
      ['[mcp_servers]\nreadgate = { command = "node" }\n', /written as an inline table or with dotted keys/],
      ['mcp_servers = { other = { command = "x" } }\n', /cannot take a \[mcp_servers.readgate\] table as it is written/],
      ['mcp_servers = "x"\n', /"mcp_servers" is not a table/],
    ] as const) {
      const project = makeTempDir();
      const file = path.join(project, '.codex', 'config.toml');
      fs.mkdirSync(path.dirname(file));
      fs.writeFileSync(file, text);
      const result = run(BRIDGE, ['setup', 'codex'], project);
      assert.strictEqual(result.status, 2, result.stdout);
      assert.match(result.stderr, why);
      assert.match(result.stderr, /Nothing was changed/);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), text);
      assert.deepStrictEqual(fs.readdirSync(path.dirname(file)), ['config.toml']);
    }
  });

  test('--dry-run prints the resulting file and writes nothing; setup claude-code --user is refused', () => {
    const project = makeTempDir();
    const result = run(BRIDGE, ['setup', 'codex', '--dry-run'], project);
    assert.strictEqual(result.status, 0, result.stderr);
    assert.ok(result.stdout.includes(`--dry-run: nothing was written`) && result.stdout.includes(`\n\n${TABLE([BRIDGE])}\n`), result.stdout);
    assert.ok(!fs.existsSync(path.join(project, '.codex')));
    const claude = run(BRIDGE, ['setup', 'claude-code', '--user'], project);
    assert.strictEqual(claude.status, 2);
    assert.match(claude.stderr, /claude-code has no user settings file/);
  });

  test('the Connect guide\'s Codex lines: its setup line, run by sh in the project, writes exactly the table the guide shows', () => {
    const codex = connectGuide({ bridgePath: BRIDGE, headlessPath: SERVER }).find((section) => section.id === 'codex')!;
    const [project, user, table] = codex.blocks.map((block) => block.text);
    assert.strictEqual(project, `node ${BRIDGE} setup codex`);
    assert.strictEqual(user, `node ${BRIDGE} setup codex --user`);
    const folder = makeTempDir();
    const result = spawnSync('sh', ['-c', project], { cwd: folder, encoding: 'utf8' });
    assert.strictEqual(result.status, 0, result.stderr);
    assert.strictEqual(fs.readFileSync(path.join(folder, '.codex', 'config.toml'), 'utf8'), `${table}\n`);
    assert.match(codex.notes.join('\n'), /over 11,964 bytes .* under 9,000 characters/);
    assert.match(codex.notes.join('\n'), /\/hooks/);
  });
});

suite('mergeCodexConfig (pure)', () => {
  const launch = { script: '/r/mcp-bridge.js', args: [] };

  test('CRLF files get CRLF lines; a file without a final newline gets one before the table', () => {
    const crlf = mergeCodexConfig('[a]\r\nb = 1\r\n', launch);
    assert.ok(crlf.ok && crlf.text === `[a]\r\nb = 1\r\n\r\n${TABLE(['/r/mcp-bridge.js']).replace(/\n/g, '\r\n')}`, JSON.stringify(crlf));
    const bare = mergeCodexConfig('x = 1', launch);
    assert.ok(bare.ok && bare.text === `x = 1\n\n${TABLE(['/r/mcp-bridge.js'])}`, JSON.stringify(bare));
  });

  test('a timeout under 600 s is raised; keys in quotes and a header with spaces are found', () => {
    const merged = mergeCodexConfig('[ mcp_servers . "readgate" ]\n"command" = "node"\nargs = ["/r/mcp-bridge.js"]\ntool_timeout_sec = 60 # short\n', launch);
    assert.ok(merged.ok);
    assert.strictEqual(merged.text, '[ mcp_servers . "readgate" ]\n"command" = "node"\nargs = ["/r/mcp-bridge.js"]\ntool_timeout_sec = 600 # short\ndefault_tools_approval_mode = "approve"\n');
    assert.deepStrictEqual(merged.changes, ['set tool_timeout_sec = 600 in [mcp_servers.readgate] (was 60)', 'added default_tools_approval_mode = "approve" in [mcp_servers.readgate]']);
  });

  test('a value in a multi-line string or array with brackets and quotes inside is replaced whole', () => {
    const merged = mergeCodexConfig('[mcp_servers.readgate]\ncommand = """\nno\\"de ] #"""\nargs = [ "a]#", \'b[\' ] # c\n[next]\nz = 1\n', launch);
    assert.ok(merged.ok, JSON.stringify(merged));
    assert.strictEqual(merged.text, '[mcp_servers.readgate]\ncommand = "node"\nargs = ["/r/mcp-bridge.js"] # c\ntool_timeout_sec = 600\ndefault_tools_approval_mode = "approve"\n[next]\nz = 1\n');
  });
});

suite('setup codex --own-tools (hooks.json, in child processes, real temp files)', () => {
  // The agent hook beside the script that ran the set-up (dist/agent-hook.js, the smallest script), with the server's roots.
  const AGENT_HOOK = path.join(repoRoot, 'dist/agent-hook.js');
  const hook = (args: string[] = []) => ['node', AGENT_HOOK, ...args, '--own-tools', '--client', 'codex'].join(' ');

  test("a fresh project: .codex/hooks.json with ReadGate's hooks on Bash|apply_patch and the context events, the trust steps printed; a second run changes nothing", () => {
    const project = makeTempDir();
    const file = path.join(project, '.codex', 'hooks.json');
    const first = run(SERVER, ['setup', 'codex', '--own-tools', '--root', '.', '--history', 'h'], project);
    assert.strictEqual(first.status, 0, first.stderr);
    const hooks = JSON.parse(fs.readFileSync(file, 'utf8')).hooks;
    assert.deepStrictEqual(Object.keys(hooks), ['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionStart']);
    const command = hook(['--root', project, '--history', path.join(project, 'h')]);
    assert.deepStrictEqual(hooks.PreToolUse, [{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command, timeout: 900 }] }]);
    assert.deepStrictEqual(hooks.SessionStart, [{ matcher: 'compact|clear', hooks: [{ type: 'command', command, timeout: 10 }] }]);
    assert.match(first.stdout, /open \/hooks in codex and trust each of them/);
    assert.match(first.stdout, /headless guard/);
    assert.match(first.stdout, /Shell commands that write files are not judged/);
    assert.strictEqual(fs.existsSync(path.join(project, '.codex', 'config.toml')), false, 'no MCP server is set up');
    const second = run(SERVER, ['setup', 'codex', '--own-tools', '--root', '.', '--history', 'h'], project);
    assert.strictEqual(second.stdout.split('\n')[0], `${file}: already set up: nothing to change`);
  });

  test("the user's hooks stay; --user writes $CODEX_HOME/hooks.json; --dry-run writes nothing; a file that is not JSON is refused, byte-identical", () => {
    const codexHome = makeTempDir();
    const file = path.join(codexHome, 'hooks.json');
    const users = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-check' }] }] } };
    fs.writeFileSync(file, JSON.stringify(users));
    const result = run(BRIDGE, ['setup', 'codex', '--own-tools', '--user'], makeTempDir(), { CODEX_HOME: codexHome });
    assert.strictEqual(result.status, 0, result.stderr);
    const merged = JSON.parse(fs.readFileSync(file, 'utf8')).hooks;
    assert.deepStrictEqual(merged.PreToolUse[0], users.hooks.PreToolUse[0]);
    assert.strictEqual(merged.PreToolUse[1].hooks[0].command, hook());
    const project = makeTempDir();
    const dry = run(BRIDGE, ['setup', 'codex', '--own-tools', '--dry-run'], project);
    assert.strictEqual(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /"PostToolUse"/);
    assert.strictEqual(fs.existsSync(path.join(project, '.codex')), false);
    fs.mkdirSync(path.join(project, '.codex'));
    fs.writeFileSync(path.join(project, '.codex', 'hooks.json'), '{ not json');
    const bad = run(BRIDGE, ['setup', 'codex', '--own-tools'], project);
    assert.strictEqual(bad.status, 2);
    assert.match(bad.stderr, /hooks\.json is not valid JSON/);
    assert.strictEqual(fs.readFileSync(path.join(project, '.codex', 'hooks.json'), 'utf8'), '{ not json');
  });
});
