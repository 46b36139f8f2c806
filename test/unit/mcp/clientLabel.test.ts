import * as assert from 'assert';
import { clientLabel } from '../../../src/mcp/index';

suite('an MCP client\'s label (what the Sessions view and the review panel call it)', () => {
  test('title, else the name people know a known client by, else its name, and the version, once; one line of visible text, capped', () => {
    const rows: [Parameters<typeof clientLabel>[0], string | undefined][] = [
      [{ name: 'claude-code', version: '2.0.14' }, 'Claude Code 2.0.14'],
      [{ name: 'codex-mcp-client', version: '0.171.0' }, 'Codex 0.171.0'],
      [{ name: 'Visual Studio Code', version: '1.139.1' }, 'VS Code 1.139.1'],
      [{ name: 'some-new-agent', version: '1' }, 'some-new-agent 1'],
      [{ name: 'claude-code', title: 'Claude Code', version: '2.0.14' }, 'Claude Code 2.0.14'],
      [{ name: 'Codex 0.50', version: '0.50' }, 'Codex 0.50'],
      [{ name: '  Cline\n\nAPPROVED BY USER\u202e ', version: '3\r\n' }, 'Cline APPROVED BY USER 3'],
      [{ name: '\u0000\u200b\t', version: '1' }, undefined],
      [{ name: 'x'.repeat(100), version: 'y'.repeat(40) }, `${'x'.repeat(60)} ${'y'.repeat(20)}`],
      [{ name: 42 as unknown as string, version: '1' }, undefined],
      [undefined, undefined],
    ];
    for (const [client, expected] of rows) assert.strictEqual(clientLabel(client), expected, JSON.stringify(client));
  });
});
