import * as assert from 'assert';
import { MIN_OTHER_WIDTH, rowSizes, USABLE_PANEL_WIDTH, widenedRow } from '../../../src/vscode/approval/panelWidth';

suite('review panel: the width of the group it opens in', () => {
  // The default window (1400 px) with the default side bar: the editor area is about 1050 px, split in half.
  test('a new group of half the editor area is widened to a usable width, taken from the editor beside it', () => {
    assert.deepStrictEqual(widenedRow([525, 525], 1), [300, 750]);
    assert.deepStrictEqual(widenedRow([1100, 500], 1), [800, USABLE_PANEL_WIDTH]);
    assert.deepStrictEqual(widenedRow([700, 700], 0), [USABLE_PANEL_WIDTH, 600]);
  });

  test('the others give room in proportion to what they have above their minimum, and never go below it', () => {
    const sizes = widenedRow([700, 500, 300], 2);
    assert.ok(sizes);
    assert.deepStrictEqual(sizes, [367, 333, 800]);
    assert.ok(sizes.every((size, i) => i === 2 || size >= MIN_OTHER_WIDTH));
  });

  test('a group already wide enough, or one the others cannot give room to, stays as it is', () => {
    assert.strictEqual(widenedRow([200, 900], 1), undefined);
    assert.strictEqual(widenedRow([300, 300], 1), undefined);
    assert.strictEqual(widenedRow([1000], 0), undefined);
    assert.strictEqual(widenedRow([500, 500], 5), undefined);
  });

  test('only a plain row of groups is resized: a stacked or nested layout is the user’s own', () => {
    assert.deepStrictEqual(rowSizes({ orientation: 0, groups: [{ size: 525 }, { size: 525 }] }), [525, 525]);
    assert.strictEqual(rowSizes({ orientation: 1, groups: [{ size: 400 }, { size: 400 }] }), undefined);
    assert.strictEqual(rowSizes({ orientation: 0, groups: [{ size: 525, groups: [{}, {}] }, { size: 525 }] }), undefined);
    assert.strictEqual(rowSizes({ orientation: 0, groups: [{}, { size: 525 }] }), undefined);
    assert.strictEqual(rowSizes(undefined), undefined);
  });
});
