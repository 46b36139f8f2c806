import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';

suite('packaging (what the VSIX carries)', () => {
  test('the VSIX holds the extension, the headless library, both MCP scripts and the webview, and no sources or tests', function () {
    this.timeout(60_000);
    const vsce = path.join(repoRoot, 'node_modules/@vscode/vsce/vsce');
    const files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter(Boolean);
    // Connect an External Agent installs dist/mcp-bridge.js from the installed extension; dist/mcp.js is the headless server.
    for (const wanted of ['package.json', 'dist/extension.js', 'dist/core.js', 'dist/mcp.js', 'dist/mcp-bridge.js', 'dist/webview/approval.js']) assert.ok(files.includes(wanted), `${wanted} is missing from: ${files.join(', ')}`);
    assert.deepStrictEqual(files.filter((file) => /^(src|test|out|scripts|bench|node_modules)\//.test(file) || file.endsWith('.map')), []);
  });
});
