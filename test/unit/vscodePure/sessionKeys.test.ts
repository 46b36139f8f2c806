import * as assert from 'assert';
import { STANDALONE_PREFIX, apiSessionId, isStandaloneSession, isUsersOwnSession, sessionKeyOf } from '../../../src/vscode/sessions/sessionKeys';

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

  test('only palette sessions are the user\'s own; no chat key and no API session ever is', () => {
    assert.ok(isUsersOwnSession('palette:apply-patch:1234'));
    for (const id of ['chat:palette:x', 'tool:call:1', 'mcp:abc', 'api:palette:x', 'granted-session']) assert.ok(!isUsersOwnSession(id), id);
    for (const key of [sessionKeyOf({ sessionId: 'palette:x' }), sessionKeyOf({ sessionResource: 'palette:x' })]) assert.ok(key && !isUsersOwnSession(key), key);
  });

  test('an API caller keeps the id it chose, unless it would pass for the user\'s own', () => {
    // The panel words a palette session's change as "Your patch" and gives it focus: another extension must not get that.
    assert.strictEqual(apiSessionId('my-bot', () => 'fresh'), 'my-bot');
    assert.strictEqual(apiSessionId('palette:apply-patch:1', () => 'fresh'), 'api:palette:apply-patch:1');
    assert.strictEqual(apiSessionId(undefined, () => 'fresh'), 'api:fresh');
    assert.strictEqual(apiSessionId('', () => 'fresh'), 'api:fresh');
    assert.strictEqual(apiSessionId(42, () => 'fresh'), 'api:fresh');
  });
});
