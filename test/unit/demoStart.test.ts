import * as assert from 'assert';
import * as path from 'path';
import { readgateHome } from '../../src/mcp/index';
import { repoRoot } from './helpers/repoRoot';

type Settings = Record<string, unknown>;
type DemoSettings = { demoSettings(existingText: string | undefined): { settings: Settings; replaced: boolean }; DEMO_REQUIRED_SETTINGS: Settings };
type Start = { startBanner(demo: { url: string; workspace: string; bridgePath: string }): string };
type DemoServer = { readgateHomeOf(env: NodeJS.ProcessEnv): string };
const load = <T>(script: string): Promise<T> => import(path.join(repoRoot, 'scripts', script));

suite('npm start: the demo VS Code', () => {
  test('turns Auto Save off, which VS Code for the Web turns on (a second\'s delay), and starts with the MCP server on', async () => {
    // "Unsaved text stays unsaved" and the demo README's "edit without saving" failed out of the box.
    const { demoSettings } = await load<DemoSettings>('demoSettings.mjs');
    const { settings, replaced } = demoSettings(undefined);
    assert.strictEqual(settings['files.autoSave'], 'off');
    assert.strictEqual(settings['readgate.mcp.enabled'], true);
    assert.strictEqual(settings['workbench.startupEditor'], 'none', 'the tests\' quiet workbench underneath');
    assert.strictEqual(replaced, false);
  });

  test('a settings file an earlier npm start left keeps the user\'s choices but gets Auto Save off again', async () => {
    // The file was written only when absent, so every earlier demo kept saving after a second.
    const { demoSettings } = await load<DemoSettings>('demoSettings.mjs');
    const { settings } = demoSettings(JSON.stringify({ 'files.autoSave': 'afterDelay', 'workbench.colorTheme': 'Default Dark Modern', 'readgate.mcp.enabled': false }));
    assert.strictEqual(settings['files.autoSave'], 'off');
    assert.strictEqual(settings['workbench.colorTheme'], 'Default Dark Modern');
    assert.strictEqual(settings['readgate.mcp.enabled'], false, 'the user turned it off');
    const unreadable = demoSettings('{ // a comment\n "files.autoSave": "afterDelay" }');
    assert.strictEqual(unreadable.replaced, true);
    assert.strictEqual(unreadable.settings['files.autoSave'], 'off');
  });

  test('its last lines say how to begin (Get Started), how an agent in another terminal reaches the window and how to set Claude Code up', async () => {
    const { startBanner } = await load<Start>('start.mjs');
    const banner = startBanner({ url: 'http://127.0.0.1:8080/?folder=%2Fd', workspace: '/state/demo', bridgePath: '/home/me/.readgate/mcp-bridge.js' });
    const lines = banner.split('\n');
    assert.ok(lines.includes('    http://127.0.0.1:8080/?folder=%2Fd'), banner);
    assert.match(banner, /Begin with "ReadGate: Get Started"/);
    assert.match(banner, /any terminal of this user/);
    assert.ok(lines.includes('    cd /state/demo'), banner);
    assert.ok(lines.some((line) => line.startsWith('    node /home/me/.readgate/mcp-bridge.js --list')), banner);
    // Claude Code's set-up is the bridge's own command, which prints the `claude mcp add` line to run after it.
    assert.ok(lines.some((line) => /^ {4}node \/home\/me\/\.readgate\/mcp-bridge\.js setup claude-code +# /.test(line)), banner);
    assert.ok(!banner.includes('claude mcp add'), 'the banner offers claude mcp add without the settings that guard the agent');
    assert.ok(!banner.includes('Show Log'), 'the last message named Show Log, not where to begin');
    assert.ok(lines.length <= 20, `${lines.length} lines`);
  });

  test('names the bridge where the extension installs it: ReadGate\'s home by the same rule as the discovery folder', async () => {
    const { readgateHomeOf } = await load<DemoServer>('demoServer.mjs');
    assert.strictEqual(readgateHomeOf({}), readgateHome({}));
    assert.strictEqual(readgateHomeOf({ HOME: '/private/home' }), readgateHome({ HOME: '/private/home' }));
    assert.strictEqual(readgateHomeOf({ READGATE_HOME: '/x/rg' }), '/x/rg');
  });
});
