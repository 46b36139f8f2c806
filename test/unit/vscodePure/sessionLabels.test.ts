import * as assert from 'assert';
import { API_PREFIX, CHAT_PREFIX, MCP_PREFIX, PARTICIPANT_PREFIX, STANDALONE_PREFIX, apiSessionId, sessionKeyOf } from '../../../src/vscode/sessions/sessionKeys';
import { SessionLabels } from '../../../src/vscode/sessions/sessionLabels';

// Ids are minted by their owners (tool calls, @readgate, MCP, the API) with the prefixes of sessionKeys.ts; the
// labels read them back, so a prefix spelled twice could drift and a session would show as its raw id.
suite('session labels', () => {
  const labels = new SessionLabels();
  const uuid = '0123abcd-4567-89ef-0123-456789abcdef';

  test('names each kind of session by the prefix its owner minted it with', () => {
    assert.strictEqual(labels.labelOf(sessionKeyOf({ sessionId: 'abc' }) ?? ''), 'Chat abc');
    assert.strictEqual(labels.labelOf(`${CHAT_PREFIX}vscode-chat-session://local/YWJj`), 'Chat YWJj');
    assert.strictEqual(labels.labelOf(`${PARTICIPANT_PREFIX}${uuid}`), '@readgate chat 0123abcd');
    assert.strictEqual(labels.labelOf(`${MCP_PREFIX}${uuid}`), 'MCP client 0123abcd');
    assert.strictEqual(labels.labelOf(apiSessionId(undefined, () => uuid)), 'API session 0123abcd');
    assert.strictEqual(labels.labelOf(`${STANDALONE_PREFIX}${uuid}`), 'A tool call without a chat session');
    assert.ok(apiSessionId(undefined, () => uuid).startsWith(API_PREFIX));
  });

  test('a label given by the session\'s owner wins, until it is deleted; an unknown id is shown as itself', () => {
    const given = new SessionLabels();
    given.set(`${MCP_PREFIX}${uuid}`, 'Claude Code 2.0.14');
    assert.strictEqual(given.labelOf(`${MCP_PREFIX}${uuid}`), 'Claude Code 2.0.14');
    given.delete(`${MCP_PREFIX}${uuid}`);
    assert.strictEqual(given.labelOf(`${MCP_PREFIX}${uuid}`), 'MCP client 0123abcd');
    assert.strictEqual(given.labelOf('someone-else'), 'someone-else');
  });
});
