import * as assert from 'assert';
import { sessionToEvict, type SessionUse } from '../../../src/mcp/sessionEviction';

const idle = (lastUsed: number): SessionUse => ({ busy: 0, lastUsed });
const busy = (lastUsed: number): SessionUse => ({ busy: 1, lastUsed });

suite('which MCP session the HTTP server ends at its cap (src/mcp/sessionEviction.ts)', () => {
  test('the least recently used, not the first opened', () => {
    // Opened in this order; the first was used last.
    assert.strictEqual(sessionToEvict([['first', idle(300)], ['second', idle(100)], ['third', idle(200)], ['new', idle(400)]], 'new'), 'second');
  });

  test('never one with a request under way while another is idle, however long ago its request started', () => {
    assert.strictEqual(sessionToEvict([['reviewing', busy(10)], ['dead', idle(200)], ['new', idle(400)]], 'new'), 'dead');
  });

  test('when every other session is busy, the least recently used of them; never the one just opened', () => {
    assert.strictEqual(sessionToEvict([['a', busy(50)], ['b', busy(20)], ['new', idle(400)]], 'new'), 'b');
    assert.strictEqual(sessionToEvict([['new', idle(400)]], 'new'), undefined);
  });

  test('between equally old sessions, the first opened', () => {
    assert.strictEqual(sessionToEvict([['a', idle(100)], ['b', idle(100)], ['new', idle(400)]], 'new'), 'a');
  });
});
