import * as assert from 'assert';
import { windowFileId } from '../../../src/mcp/windowFileId';

suite('the id in a window\'s discovery file name (src/mcp/windowFileId.ts)', () => {
  const random = '3b241101-e2bb-4255-8caf-4136c566a962';

  test('VS Code\'s session id, cut to word characters and dashes and to 36 characters', () => {
    assert.strictEqual(windowFileId('f7d1c2a0-5b6e-4c3d-9e8f-0a1b2c3d4e5f1752131415926', random), 'f7d1c2a0-5b6e-4c3d-9e8f-0a1b2c3d4e5f');
    assert.strictEqual(windowFileId('abc/../d.e', random), 'abcde');
  });

  test('code-server\'s unfilled placeholder "someValue.sessionId", in any case, gives way to the random id', () => {
    assert.strictEqual(windowFileId('someValue.sessionId', random), random);
    assert.strictEqual(windowFileId('SOMEVALUE.SESSIONID', random), random);
    assert.strictEqual(windowFileId('someValue.somethingElse', random), random);
  });

  test('an empty id, one with nothing a file name takes, or none gives way to the random id', () => {
    assert.strictEqual(windowFileId('', random), random);
    assert.strictEqual(windowFileId('../..', random), random);
    assert.strictEqual(windowFileId(undefined, random), random);
  });

  test('the random id is cleaned too, and "window" stands in when nothing is left', () => {
    assert.strictEqual(windowFileId('', 'a/b'), 'ab');
    assert.strictEqual(windowFileId('', '//'), 'window');
  });
});
