import * as assert from 'assert';
import * as fs from 'fs';
import type { FileSystem, TextCodec } from '../../../src/core/index';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { assertOk, codeOf, fixture } from '../helpers/guardFixture';

// A Windows-1252 subset: 0x80 is the euro sign; other bytes as Latin-1. Characters it lacks come back as '?'.
const cp1252: TextCodec = {
  name: 'windows1252',
  async decode(bytes) {
    return Buffer.from(bytes).toString('latin1').replace(/\x80/g, '\u20ac');
  },
  async encode(text) {
    return Buffer.from(text.replace(/\u20ac/g, '\x80').replace(/[^\x00-\xff]/gu, '?'), 'latin1');
  },
};

function withCodec(codec: TextCodec | undefined): FileSystem {
  return { ...createNodeFileSystem(), codecFor: async () => codec };
}

suite('encodings the adapter knows', () => {
  test('a file in the adapter\u2019s encoding reads as the user sees it and keeps every other byte through an edit', async () => {
    const f = fixture({ fileSystem: withCodec(cp1252) });
    const file = f.file('prices.txt', Buffer.from('price: \x80 5\nname: caf\xe9\n', 'latin1'));
    const read = await f.session.read(file);
    assertOk(read);
    assert.ok(read.text.includes('1\tprice: \u20ac 5'), read.text);
    assert.ok(read.text.split('\n')[0].includes('windows1252'));
    assertOk(await f.session.edit(file, [{ oldString: '\u20ac 5', newString: '\u20ac 6' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('price: \x80 6\nname: caf\xe9\n', 'latin1'));
  });

  test('a character the encoding cannot hold is refused, not written as a replacement', async () => {
    const f = fixture({ fileSystem: withCodec(cp1252) });
    const file = f.file('prices.txt', Buffer.from('price: \x80 5\n', 'latin1'));
    await f.session.read(file);
    const edit = await f.session.edit(file, [{ oldString: '5', newString: '\u6f22' }]);
    assert.strictEqual(codeOf(edit), 'INVALID_INPUT');
    assert.match(!edit.ok ? edit.message : '', /windows1252/);
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('price: \x80 5\n', 'latin1'));
  });

  test('a codec that does not round-trip the bytes is not used: the file stays byte-exact Latin-1', async () => {
    const lossy: TextCodec = { name: 'lossy', decode: async () => 'something else', encode: async () => Buffer.from('x') };
    const f = fixture({ fileSystem: withCodec(lossy) });
    const file = f.file('a.txt', Buffer.from('caf\xe9\n', 'latin1'));
    const read = await f.session.read(file);
    assertOk(read);
    assert.ok(read.text.includes('caf\u00e9'));
    assert.ok(read.text.split('\n')[0].includes('Latin-1'));
  });
});
