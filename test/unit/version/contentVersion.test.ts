import * as assert from 'assert';
import { loadHasher } from '../../../src/core/version/contentVersion';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function pseudoRandomBytes(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

suite('contentVersion', () => {
  test('hashes with xxh64 (seed 0) into 16 lowercase hex characters', async () => {
    const hasher = await loadHasher();
    // Reference vectors of XXH64 with seed 0.
    assert.strictEqual(hasher.hash(new Uint8Array(0)), 'ef46db3751d8e999');
    assert.strictEqual(hasher.hash(bytes('abc')), '44bc2cf5ad770999');
  });

  test('zero-pads digests whose value has leading zero nibbles', async () => {
    const hasher = await loadHasher();
    let found = false;
    for (let i = 0; i < 2000 && !found; i++) {
      const digest = hasher.hash(bytes(`input ${i}`));
      assert.match(digest, /^[0-9a-f]{16}$/);
      found = digest.startsWith('0');
    }
    assert.ok(found, 'no digest with a leading zero among 2000 inputs');
  });

  test('gives the same digest streamed in any chunking as in one piece', async () => {
    const hasher = await loadHasher();
    const data = pseudoRandomBytes(100_003);
    const whole = hasher.hash(data);
    for (const chunkSize of [1, 7, 64, 4096, 65_536, 100_003]) {
      const stream = hasher.create();
      for (let at = 0; at < data.length; at += chunkSize) stream.update(data.subarray(at, at + chunkSize));
      assert.strictEqual(stream.digest(), whole, `chunk size ${chunkSize}`);
    }
  });

  test('gives the same digest for inputs larger than its internal slice, one-shot or streamed', async () => {
    // hash() slices big inputs so the wasm memory stays small; the digest must not depend on that.
    const hasher = await loadHasher();
    const data = pseudoRandomBytes(3 * 1024 * 1024 + 17, 7);
    const stream = hasher.create();
    for (let at = 0; at < data.length; at += 1_000_000) stream.update(data.subarray(at, at + 1_000_000));
    assert.strictEqual(hasher.hash(data), stream.digest());
  });

  test('keeps concurrent streams independent', async () => {
    const hasher = await loadHasher();
    const a = hasher.create();
    const b = hasher.create();
    a.update(bytes('hello '));
    b.update(bytes('other'));
    a.update(bytes('world'));
    assert.strictEqual(a.digest(), hasher.hash(bytes('hello world')));
    assert.strictEqual(b.digest(), hasher.hash(bytes('other')));
  });

  test('hashes a view of a larger buffer by the view bytes only', async () => {
    const hasher = await loadHasher();
    const backing = bytes('xxabcxx');
    assert.strictEqual(hasher.hash(backing.subarray(2, 5)), hasher.hash(bytes('abc')));
  });

  test('treats a BOM-only or line-ending-only change as a new version', async () => {
    const hasher = await loadHasher();
    const lf = hasher.hash(bytes('a\nb\n'));
    assert.notStrictEqual(hasher.hash(bytes('a\r\nb\r\n')), lf);
    assert.notStrictEqual(hasher.hash(bytes('\uFEFFa\nb\n')), lf);
  });

  test('instantiates the wasm module once and shares the hasher', async () => {
    const [first, second] = await Promise.all([loadHasher(), loadHasher()]);
    assert.strictEqual(first, second);
    assert.strictEqual(await loadHasher(), first);
  });
});
