import * as assert from 'assert';
import { SessionExpiry } from '../../../src/vscode/tools/sessionExpiry';

suite('tool session expiry', () => {
  test('drops sessions idle past the TTL, oldest first, but never the one just used', () => {
    const expiry = new SessionExpiry({ ttlMs: 1000, maxSessions: 10 });
    expiry.touch('a', 0);
    expiry.touch('b', 500);
    expiry.touch('c', 1400);
    assert.deepStrictEqual(expiry.expired(1600), ['a', 'b']);
    assert.deepStrictEqual(expiry.expired(99_999), []);
  });

  test('keeps at most maxSessions, dropping the least recently used', () => {
    const expiry = new SessionExpiry({ ttlMs: 1_000_000, maxSessions: 2 });
    expiry.touch('a', 1);
    expiry.touch('b', 2);
    expiry.touch('a', 3);
    expiry.touch('c', 4);
    assert.deepStrictEqual(expiry.expired(5), ['b']);
  });
});
