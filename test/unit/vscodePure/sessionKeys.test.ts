import * as assert from 'assert';
import { STANDALONE_PREFIX, isStandaloneSession, sessionKeyOf } from '../../../src/vscode/tools/sessionKeys';

// The tool API has no conversation id; the invocation token's runtime shape has changed across VS Code versions.
suite('session keys from tool invocation tokens', () => {
  test('uses the chat session resource of VS Code 1.139 tokens (a Uri or its components)', () => {
    const uri = { scheme: 'vscode-chat-session', authority: 'local', path: '/YWJj', query: '', toString: () => 'ignored' };
    assert.strictEqual(sessionKeyOf({ sessionResource: uri }), 'chat:vscode-chat-session://local/YWJj');
    assert.strictEqual(sessionKeyOf({ sessionResource: 'vscode-chat-session://local/YWJj' }), 'chat:vscode-chat-session://local/YWJj');
  });

  test('falls back to the sessionId of older tokens', () => {
    assert.strictEqual(sessionKeyOf({ sessionId: 'abc-123' }), 'chat:abc-123');
  });

  test('fails safe: no token, an unknown shape or a throwing getter gives no key', () => {
    assert.strictEqual(sessionKeyOf(undefined), undefined);
    assert.strictEqual(sessionKeyOf({ something: 1 }), undefined);
    const hostile = Object.defineProperty({}, 'sessionResource', { get() { throw new Error('nope'); } });
    assert.strictEqual(sessionKeyOf(hostile), undefined);
  });

  test('no key is ever a standalone session id: a chat never lands in a one-call session', () => {
    assert.ok(isStandaloneSession(`${STANDALONE_PREFIX}1234`));
    for (const key of [sessionKeyOf({ sessionId: 'tool:call:x' }), sessionKeyOf({ sessionResource: 'tool:call:x' })]) assert.ok(key && !isStandaloneSession(key), key);
  });
});
