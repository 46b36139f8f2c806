import * as assert from 'assert';
import { EditHistory } from '../../../src/core/edit/lineOrigins';

// A 30-line original, none of it seen. Edit 0 inserts 3 lines before line 2; edit 1 deletes what were original lines 10–11
// (lines 13–14 after edit 0); edit 2 rewrites what was original line 5 (line 8 by then) as 2 lines.
function history(): EditHistory {
  const h = new EditHistory(30, []);
  h.record(0, [{ oldFrom: 2, oldTo: 2, newFrom: 2, newTo: 5 }]);
  h.record(1, [{ oldFrom: 13, oldTo: 15, newFrom: 13, newTo: 13 }]);
  h.record(2, [{ oldFrom: 8, oldTo: 9, newFrom: 8, newTo: 10 }]);
  return h;
}

suite('EditHistory', () => {
  test('maps lines the call did not write back to their original numbers', () => {
    const h = history();
    assert.deepStrictEqual(h.originOf(1), { line: 1 });
    assert.deepStrictEqual(h.originOf(5), { line: 2 });
    assert.deepStrictEqual(h.originOf(7), { line: 4 });
    assert.deepStrictEqual(h.originOf(10), { line: 6 });
    // After the deletion: original 12 sits at 12 + 3 (inserted) - 2 (deleted) + 1 (split line) = 14.
    assert.deepStrictEqual(h.originOf(14), { line: 12 });
  });

  test('names the edit that wrote a line, and the original line it stands at', () => {
    const h = history();
    assert.deepStrictEqual(h.originOf(3), { writtenBy: 0, at: 2 });
    assert.deepStrictEqual(h.originOf(9), { writtenBy: 2, at: 5 });
  });

  test('maps ranges of unwritten lines back, splitting them where a deletion joined them', () => {
    const h = history();
    // Current 13–14 were original 9 and 12 (10–11 were deleted in between).
    assert.deepStrictEqual(h.toOriginal([13, 14]), [9, 9, 12, 12]);
    assert.deepStrictEqual(h.toOriginal([1, 1, 20, 25]), [1, 1, 18, 23]);
  });

  test('seen lines do not map back: only unseen ones are asked for', () => {
    const h = new EditHistory(10, [1, 5]);
    h.record(0, [{ oldFrom: 2, oldTo: 3, newFrom: 2, newTo: 5 }]);
    assert.deepStrictEqual(h.toOriginal([1, 12]), [6, 10]);
  });

  test('an insertion at the end has no original line to stand at', () => {
    const h = new EditHistory(3, []);
    h.record(0, [{ oldFrom: 4, oldTo: 4, newFrom: 4, newTo: 6 }]);
    assert.deepStrictEqual(h.originOf(5), { writtenBy: 0 });
  });
});
