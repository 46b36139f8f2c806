import * as assert from 'assert';
import { type LineChange, type Ranges, add, covers, formatRanges, gaps, intersect, intersects, isTouchedBy, mapThrough, merged, newSide, union } from '../../../src/core/text/lineRanges';

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

  // The functions merge and walk sorted ranges in one pass; a set of line numbers is the plain meaning.
  test('union, covers, intersects, gaps, mapThrough and newSide agree with a line-by-line model', () => {
    let seed = 3;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const toSet = (ranges: Ranges): Set<number> => {
      const set = new Set<number>();
      for (let i = 0; i < ranges.length; i += 2) for (let line = ranges[i]; line <= ranges[i + 1]; line++) set.add(line);
      return set;
    };
    const fromSet = (set: Set<number>): Ranges => merged([...set].sort((a, b) => a - b).flatMap((line) => [line, line]));
    const randomRanges = (): Ranges => {
      const out: number[] = [];
      for (let line = 1 + random(3); line < 40; line += 2 + random(6)) {
        const to = line + random(4);
        out.push(line, to);
        line = to;
      }
      return out;
    };
    const randomChanges = (): LineChange[] => {
      const changes: LineChange[] = [];
      let shift = 0;
      for (let line = 1 + random(5); line < 40; line += 1 + random(8)) {
        const oldTo = line + random(3);
        const added = random(4);
        changes.push({ oldFrom: line, oldTo, newFrom: line + shift, newTo: line + shift + added });
        shift += added - (oldTo - line);
        line = oldTo;
      }
      return changes;
    };
    for (let round = 0; round < 500; round++) {
      const a = randomRanges();
      const b = randomRanges();
      const setA = toSet(a);
      assert.deepStrictEqual(union(a, b), fromSet(new Set([...setA, ...toSet(b)])), `union(${a}, ${b})`);
      const from = 1 + random(45);
      const to = from - 1 + random(8);
      const span = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
      assert.strictEqual(covers(a, from, to), span.every((line) => setA.has(line)), `covers(${a}, ${from}, ${to})`);
      if (to >= from) assert.strictEqual(intersects(a, from, to), span.some((line) => setA.has(line)), `intersects(${a}, ${from}, ${to})`);
      assert.deepStrictEqual(gaps(a, from, to), fromSet(new Set(span.filter((line) => !setA.has(line)))), `gaps(${a}, ${from}, ${to})`);
      const changes = randomChanges();
      const mapped = new Set<number>();
      for (const line of setA) {
        if (changes.some((c) => c.oldFrom <= line && line < c.oldTo)) continue;
        const before = changes.filter((c) => c.oldTo <= line);
        mapped.add(line + (before.length ? before[before.length - 1].newTo - before[before.length - 1].oldTo : 0));
      }
      assert.deepStrictEqual(mapThrough(a, changes), fromSet(mapped), `mapThrough(${a}, ${JSON.stringify(changes)})`);
      const written = new Set(changes.flatMap((c) => Array.from({ length: c.newTo - c.newFrom }, (_, i) => c.newFrom + i)));
      assert.deepStrictEqual(newSide(changes), fromSet(written), `newSide(${JSON.stringify(changes)})`);
    }
  });
});

suite('intersect', () => {
  test('keeps the lines in both, across several ranges on each side', () => {
    assert.deepStrictEqual(intersect([1, 5, 10, 20], [3, 12, 18, 30]), [3, 5, 10, 12, 18, 20]);
    assert.deepStrictEqual(intersect([1, 5], [6, 9]), []);
    assert.deepStrictEqual(intersect([], [1, 9]), []);
    assert.deepStrictEqual(intersect([4, 4], [1, 9]), [4, 4]);
  });
});
