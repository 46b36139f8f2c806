import * as assert from 'assert';
import { requestIdOf } from '../../../src/mcp/requestId';

/** The id as the transport would find it in a line too long to keep: from its first and last bytes. */
const idOf = (line: string): unknown => requestIdOf(line.slice(0, 60), line.slice(-60));
const filler = 'z'.repeat(200);

suite('the request id of a message that cannot be read', () => {
  test('finds the id where the SDKs write it: first (Python) or last (TypeScript), a number or a string', () => {
    assert.strictEqual(idOf(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"c":"${filler}"}}`), 12);
    assert.strictEqual(idOf(`{ "id" : "a-\\"b", "method":"x","params":{"c":"${filler}"}}`), 'a-"b');
    assert.strictEqual(idOf(`{"method":"tools/call","params":{"c":"${filler}"},"jsonrpc":"2.0","id":0}\r`), 0);
    assert.strictEqual(idOf(`{"method":"x","params":{"c":"${filler}"},"id":"req-9"}`), 'req-9');
  });

  // A wrong id would fail another pending request: only the outermost object's id counts.
  test('takes no id from a nested object or from inside a string, nor one that is not an integer or a string', () => {
    assert.strictEqual(idOf(`{"method":"x","params":{"c":"${filler}","id":5}}`), undefined);
    assert.strictEqual(idOf(`{"method":"x","params":{"c":"${filler},\\"id\\":5}"}}`), undefined);
    assert.strictEqual(idOf(`{"params":{"id":5,"c":"${filler}"},"method":"x"}`), undefined);
    assert.strictEqual(idOf(`{"method":"x","params":{"c":"${filler}"},"id":1.5}`), undefined);
    assert.strictEqual(idOf(`{"method":"x","params":{"c":"${filler}"},"id":null}`), undefined);
    assert.strictEqual(idOf(`not json ${filler}`), undefined);
  });
});
