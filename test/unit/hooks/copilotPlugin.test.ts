/**
 * The agent plugin the extension contributes for VS Code's agents (`media/copilotHooks`, package.json's
 * `chatPlugins`): present only while `readgate.agentHooks.enabled` is on, hooking exactly the events the judge
 * needs, with a timeout past the longest review, and a command that runs the built hook, or nothing (silently)
 * when no ReadGate window set the runtime for it. Its command is run here as VS Code's hook runner runs it: through
 * the shell, `${PLUGIN_ROOT}` replaced by the plugin's folder.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HOOK_REVIEW_MS, HOOK_TIMEOUT_SECONDS } from '../../../src/hooks/index';
import { repoRoot } from '../helpers/repoRoot';

interface Manifest {
  contributes: { chatPlugins?: { path: string; when?: string }[]; configuration: { properties: Record<string, { default?: unknown; scope?: string }> } };
}
interface HookCommand {
  type: string;
  command: string;
  windows?: string;
  env?: Record<string, string>;
  timeout?: number;
}

const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const plugin = manifest.contributes.chatPlugins?.[0];
const pluginRoot = path.join(repoRoot, plugin?.path ?? 'missing');
const hooks = (JSON.parse(fs.readFileSync(path.join(pluginRoot, 'hooks/hooks.json'), 'utf8')) as { hooks: Record<string, HookCommand[]> }).hooks;

/** The command as the hook runner runs it: the token replaced by the plugin's folder, in a shell. */
function run(command: string, env: Record<string, string>, input: string) {
  return spawnSync('/bin/sh', ['-c', command.replaceAll('${PLUGIN_ROOT}', pluginRoot)], { input, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8' });
}

suite('the agent plugin for VS Code’s agents', () => {
  test('is contributed only while readgate.agentHooks.enabled is on, a user setting that is off by default', () => {
    assert.deepStrictEqual(manifest.contributes.chatPlugins, [{ path: './media/copilotHooks', when: 'config.readgate.agentHooks.enabled' }]);
    const setting = manifest.contributes.configuration.properties['readgate.agentHooks.enabled'];
    assert.strictEqual(setting.default, false);
    assert.strictEqual(setting.scope, 'application', 'a repository must not turn the guard off');
    assert.ok(fs.existsSync(path.join(pluginRoot, '.plugin/plugin.json')), 'the open plugin manifest VS Code looks for');
  });

  test('hooks the events the judge needs, each running the built hook for Copilot, and waits longer than a review may take', () => {
    assert.deepStrictEqual(Object.keys(hooks).sort(), ['PostToolUse', 'PreCompact', 'PreToolUse', 'SubagentStart', 'SubagentStop']);
    for (const [event, [entry, ...more]] of Object.entries(hooks)) {
      assert.deepStrictEqual(more, [], event);
      assert.strictEqual(entry.type, 'command');
      assert.match(entry.command, /^"\$\{READGATE_NODE:-true\}" "\$\{PLUGIN_ROOT\}\/\.\.\/\.\.\/dist\/agent-hook\.js" --client copilot$/);
      assert.match(entry.windows ?? '', /READGATE_NODE.*agent-hook\.js" --client copilot/);
      assert.deepStrictEqual(entry.env, { ELECTRON_RUN_AS_NODE: '1' }, 'the extension host may be Electron: it runs the hook as Node');
    }
    assert.strictEqual(hooks.PreToolUse[0].timeout, HOOK_TIMEOUT_SECONDS);
    assert.ok(HOOK_TIMEOUT_SECONDS * 1000 > HOOK_REVIEW_MS + 30_000, 'the hook, not the client, ends a review that takes too long');
  });

  test('its command runs the built hook: with no window it allows silently, and without the runtime a window sets it does nothing at all', () => {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'replace_string_in_file', tool_input: { filePath: '/p/a', oldString: 'a', newString: 'b' }, tool_use_id: 'c' });
    const command = hooks.PreToolUse[0].command;
    assert.ok(fs.existsSync(path.join(repoRoot, 'dist/agent-hook.js')), 'run npm run build first');
    const noRuntime = run(command, {}, input);
    assert.deepStrictEqual([noRuntime.status, noRuntime.stdout, noRuntime.stderr], [0, '', '']);
    const noWindow = run(command, { READGATE_NODE: process.execPath, READGATE_HOOK_SOCKET: '/nonexistent/readgate.sock', READGATE_HOOK_TOKEN: 't' }, input);
    assert.deepStrictEqual([noWindow.status, noWindow.stdout, noWindow.stderr], [0, '', '']);
  });
});
