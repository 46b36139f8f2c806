/**
 * `setup gemini-cli --own-tools` and `setup qwen-code --own-tools` (dist/mcp-bridge.js and dist/mcp.js in child
 * processes, real temp files): the hooks in the client's settings file, in its terms (Gemini CLI's BeforeTool and
 * AfterTool, its timeouts in milliseconds), the user's settings kept, and without --own-tools a refusal that says
 * where the client's MCP set-up is.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ownToolsHookCommand } from '../../../src/mcp/setup/ownToolsHooks';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const SERVER = path.join(repoRoot, 'dist/mcp.js');
const run = (script: string, args: string[], cwd: string, env: Record<string, string> = {}) => {
  const result = spawnSync(process.execPath, [script, ...args], { cwd, encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
};

suite('setup gemini-cli|qwen-code --own-tools', () => {
  test("Gemini CLI: .gemini/settings.json gets BeforeTool and AfterTool hooks (timeouts in milliseconds) and SessionStart clear; the user's settings stay; a second run changes nothing", () => {
    const project = makeTempDir();
    const file = path.join(project, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ model: { name: 'gemini-2.5-pro' }, hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'check' }] }] } }));
    const first = run(SERVER, ['setup', 'gemini-cli', '--own-tools', '--root', '.'], project);
    assert.strictEqual(first.status, 0, first.stderr);
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepStrictEqual(settings.model, { name: 'gemini-2.5-pro' });
    const command = ['node', path.join(repoRoot, 'dist/agent-hook.js'), '--root', project, '--own-tools', '--client', 'gemini-cli'].join(' ');
    assert.deepStrictEqual(settings.hooks.BeforeTool, [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'check' }] },
      { matcher: 'read_file|replace|write_file|invoke_agent', hooks: [{ type: 'command', command, timeout: 900_000 }] },
    ]);
    assert.deepStrictEqual(settings.hooks.AfterTool[0].hooks[0].timeout, 10_000);
    assert.deepStrictEqual(settings.hooks.SessionStart, [{ matcher: 'clear', hooks: [{ type: 'command', command, timeout: 10_000 }] }]);
    assert.match(first.stdout, /PreCompress fires before every request/);
    assert.strictEqual(run(SERVER, ['setup', 'gemini-cli', '--own-tools', '--root', '.'], project).stdout.split('\n')[0], `${file}: already set up: nothing to change`);
  });

  test('Qwen Code: .qwen/settings.json (or ~/.qwen with --user) gets PreToolUse and PostToolUse on its file tools and the context events', () => {
    const home = makeTempDir();
    const result = run(BRIDGE, ['setup', 'qwen-code', '--own-tools', '--user'], makeTempDir(), { HOME: home });
    assert.strictEqual(result.status, 0, result.stderr);
    const hooks = JSON.parse(fs.readFileSync(path.join(home, '.qwen', 'settings.json'), 'utf8')).hooks;
    assert.deepStrictEqual(Object.keys(hooks), ['PreToolUse', 'PostToolUse', 'SubagentStart', 'SubagentStop', 'PreCompact', 'SessionStart']);
    assert.deepStrictEqual(hooks.PreToolUse, [{ matcher: 'read_file|edit|write_file|notebook_edit', hooks: [{ type: 'command', command: `node ${path.join(repoRoot, 'dist/agent-hook.js')} --own-tools --client qwen-code`, timeout: 900 }] }]);
  });

  test('without --own-tools: refused (exit 2), nothing written, and the Connect guide named; --help shows --own-tools as needed', () => {
    const project = makeTempDir();
    const refused = run(BRIDGE, ['setup', 'gemini-cli'], project);
    assert.strictEqual(refused.status, 2);
    assert.match(refused.stderr, /add --own-tools.*Connect guide/s);
    assert.deepStrictEqual(fs.readdirSync(project), []);
    assert.match(run(BRIDGE, ['setup', 'qwen-code', '--help'], project).stdout, /^Usage: node mcp-bridge\.js setup qwen-code --own-tools /);
  });
});

suite('the own-tools hook command', () => {
  test('the agent hook beside the script that ran the set-up, with the server\'s roots; the script\'s own `hook` where none lies beside it', () => {
    const dir = makeTempDir();
    const bridge = path.join(dir, 'mcp-bridge.js');
    fs.writeFileSync(bridge, '');
    assert.strictEqual(ownToolsHookCommand({ script: bridge, args: [] }), `node ${bridge} hook`);
    fs.writeFileSync(path.join(dir, 'agent-hook.js'), '');
    assert.strictEqual(ownToolsHookCommand({ script: bridge, args: [] }), `node ${path.join(dir, 'agent-hook.js')}`);
    assert.strictEqual(ownToolsHookCommand({ script: path.join(dir, 'mcp.js'), args: ['--root', '/a b'] }), `node ${path.join(dir, 'agent-hook.js')} --root '/a b'`);
  });
});
