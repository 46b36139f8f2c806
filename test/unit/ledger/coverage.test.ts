import * as assert from 'assert';
import { add, covers, formatRanges, gaps, isTouchedBy, mapThrough, newSide, union } from '../../../src/core/ledger/coverage';

suite('coverage', () => {
  test('merges overlapping and adjacent ranges', () => {
    assert.deepStrictEqual(union([1, 3, 10, 12], [4, 5, 11, 20]), [1, 5, 10, 20]);
    assert.deepStrictEqual(add([1, 3], 7, 9), [1, 3, 7, 9]);
  });

  test('tells whether a span is covered and what is missing', () => {
    const seen = [1, 10, 20, 30];
    assert.strictEqual(covers(seen, 2, 9), true);
    assert.strictEqual(covers(seen, 9, 21), false);
    assert.deepStrictEqual(gaps(seen, 5, 25), [11, 19]);
    assert.deepStrictEqual(gaps(seen, 31, 35), [31, 35]);
  });

  test('shifts covered lines after an insertion and drops replaced lines', () => {
    // Line 7 replaced by two lines: old 8.. move down by one; old 7 is no longer "seen".
    const changes = [{ oldFrom: 7, oldTo: 8, newFrom: 7, newTo: 9 }];
    assert.deepStrictEqual(mapThrough([5, 10], changes), [5, 6, 9, 11]);
    assert.deepStrictEqual(newSide(changes), [7, 8]);
  });

  test('maps through several changes, including a deletion and a pure insertion', () => {
    const changes = [
      { oldFrom: 3, oldTo: 5, newFrom: 3, newTo: 3 }, // lines 3-4 deleted
      { oldFrom: 10, oldTo: 10, newFrom: 8, newTo: 11 }, // 3 lines inserted before old line 10
    ];
    assert.deepStrictEqual(mapThrough([1, 12], changes), [1, 7, 11, 13]);
  });

  test('a change touches seen lines it replaces, and insertions strictly inside a seen block', () => {
    const seen = [10, 20];
    assert.strictEqual(isTouchedBy(seen, { oldFrom: 15, oldTo: 16, newFrom: 15, newTo: 16 }), true);
    assert.strictEqual(isTouchedBy(seen, { oldFrom: 25, oldTo: 26, newFrom: 25, newTo: 26 }), false);
    assert.strictEqual(isTouchedBy(seen, { oldFrom: 15, oldTo: 15, newFrom: 15, newTo: 17 }), true);
    // Lines inserted right after the seen block do not break what the agent saw.
    assert.strictEqual(isTouchedBy(seen, { oldFrom: 21, oldTo: 21, newFrom: 21, newTo: 23 }), false);
  });

  test('formats ranges for messages', () => {
    assert.strictEqual(formatRanges([1, 20, 40, 40]), '1–20, 40');
    assert.strictEqual(formatRanges([]), 'none');
  });
});
