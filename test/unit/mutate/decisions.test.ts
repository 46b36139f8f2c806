/** The prior-read and staleness decisions as tables: facts in, decision out (no file system, no ledger). */
import * as assert from 'assert';
import { decideStaleness } from '../../../src/core/ledger/staleness';
import { decidePriorRead, type PriorReadFacts } from '../../../src/core/mutate/decidePriorRead';
import type { LedgerEntry } from '../../../src/core/ledger/sessionLedger';

const seenEntry: LedgerEntry = { target: '/r/a.txt', path: '/r/a.txt', identity: 'ino:1:2:3', version: 'v1', totalLines: 10, seen: [1, 5], shown: [1, 5], shownByRead: 1, recordedAt: 0 };
const missing: LedgerEntry = { ...seenEntry, identity: undefined, version: undefined, seen: [], shown: [] };

suite('decidePriorRead (the path decides, the content confirms)', () => {
  const table: [string, PriorReadFacts, ReturnType<typeof decidePriorRead>][] = [
    ['absent, never seen: a create', { exists: false }, { kind: 'create' }],
    ['absent, seen missing: a create', { exists: false, entry: missing }, { kind: 'create' }],
    ['absent, seen present: vanished', { exists: false, entry: seenEntry }, { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'vanished', entry: seenEntry }],
    ['absent with expectedVersion', { exists: false, expectedVersion: 'v1' }, { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'expected-missing' }],
    ['present, never seen: unread', { exists: true }, { kind: 'refuse', code: 'EDIT_REQUIRES_PRIOR_READ', reason: 'unread' }],
    ['present, seen at this path (any inode): verify by content', { exists: true, entry: seenEntry }, { kind: 'verify', entry: seenEntry }],
    ['present, seen missing: appeared', { exists: true, entry: missing }, { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'appeared', entry: missing }],
    ['present, unseen here but maybe under another name: alias (content must match)', { exists: true, aliasCandidate: true }, { kind: 'alias' }],
    ['an entry at the path wins over an alias', { exists: true, entry: seenEntry, aliasCandidate: true }, { kind: 'verify', entry: seenEntry }],
    ['expectedVersion wins for an existing file', { exists: true, entry: seenEntry, expectedVersion: 'v9' }, { kind: 'expected', expectedVersion: 'v9' }],
  ];
  for (const [name, facts, expected] of table) test(name, () => assert.deepStrictEqual(decidePriorRead(facts), expected));
});

suite('decideStaleness (coverage carries over a change that misses it)', () => {
  const text = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');
  const base = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const facts = (current: string[], seen: number[], extra: Partial<Parameters<typeof decideStaleness>[0]> = {}) => ({
    seenVersion: 'v1',
    seen,
    currentVersion: current === base ? 'v1' : 'v2',
    currentText: text(current),
    currentLines: current.length,
    snapshot: text(base),
    wholeFile: false,
    ...extra,
  });
  const table: [string, Parameters<typeof decideStaleness>[0], string, number[]?][] = [
    ['same version: same coverage', facts(base, [1, 3]), 'same', [1, 3]],
    ['a change below the seen lines: carried', facts(['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h'], [1, 3]), 'carried', [1, 3]],
    ['lines inserted above the seen lines: carried and shifted', facts(['x', 'y', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], [4, 6]), 'carried', [6, 8]],
    ['a change in the seen lines: touched', facts(['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h'], [1, 3]), 'touched'],
    ['a deletion of a seen line: touched', facts(['a', 'c', 'd', 'e', 'f', 'g', 'h'], [1, 3]), 'touched'],
    ['a write replaces every line: any change touches', facts(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'H'], [1, 3], { wholeFile: true }), 'touched'],
    ['no snapshot of the seen version: unknown (strict)', facts(['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h'], [1, 3], { snapshot: undefined }), 'unknown'],
  ];
  for (const [name, input, kind, seen] of table) {
    test(name, () => {
      const decision = decideStaleness(input);
      assert.strictEqual(decision.kind, kind);
      if (seen) assert.deepStrictEqual([...(decision as { seen: readonly number[] }).seen], seen);
    });
  }

  test('touched keeps the untouched seen lines, mapped to the new version', () => {
    const decision = decideStaleness(facts(['x', 'a', 'B', 'c', 'd', 'e', 'f', 'g', 'h'], [1, 4]));
    assert.strictEqual(decision.kind, 'touched');
    // Seen 1–4 (a b c d); x inserted, b changed: a c d remain seen at 2, 4–5.
    assert.deepStrictEqual([...(decision as { seenUntouched: readonly number[] }).seenUntouched], [2, 2, 4, 5]);
  });
});
