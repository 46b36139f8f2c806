/**
 * The decision of one file's change as a table: facts in, a plan, a refusal (with what the ledger learns) or the
 * fact still needed out. No file system, no clock, no ledger: every row builds its facts by hand.
 */
import * as assert from 'assert';
import { DEFAULTS } from '../../../src/core/defaults';
import { indexLines } from '../../../src/core/text/lineEndings';
import type { LedgerEntry } from '../../../src/core/ledger/sessionLedger';
import { decideMutation, type MutationDecision } from '../../../src/core/mutate/decideMutation';
import type { ChangeRequest } from '../../../src/core/mutate/filePlan';
import type { MutationFacts } from '../../../src/core/mutate/mutationFacts';
import type { FileStat, TextCodec } from '../../../src/core/ports';
import type { FileText } from '../../../src/core/text/loadText';
import { isRefusal } from '../../../src/core/refusals/refusal';

const PATH = '/root/a.txt';
const limits = { maxLines: DEFAULTS.maxLines, maxBytes: DEFAULTS.maxBytes, maxLineLength: DEFAULTS.maxLineLength, maxFileBytes: DEFAULTS.maxFileBytes };

function fileStat(over: Partial<FileStat> = {}): FileStat {
  return { kind: 'file', size: 20, mtimeMs: 0, ctimeMs: 0, mode: 0o644, nlink: 1, identity: '1:100', ...over };
}

function text(content: string, version: string, codec?: TextCodec): FileText {
  return { bytes: Buffer.from(content), version, encoding: 'utf8', text: content, index: indexLines(content), ascii: true, ...(codec ? { codec } : {}) };
}

function entry(over: Partial<LedgerEntry> = {}): LedgerEntry {
  return { target: PATH, path: PATH, identity: '1:100', version: 'v1', totalLines: 3, seen: [1, 3], shown: [1, 3], shownByRead: 1, recordedAt: 10, ...over };
}

const edit = (oldString: string, newString: string): ChangeRequest => ({ kind: 'edit', edits: [{ oldString, newString }] });

function facts(over: Partial<MutationFacts> & { request?: ChangeRequest; moveTo?: string; expectedVersion?: string } = {}): MutationFacts {
  const { request = edit('two', 'TWO'), moveTo, expectedVersion, ...rest } = over;
  return {
    sessionId: 's',
    standalone: false,
    now: 100,
    limits,
    maxFileBytes: limits.maxFileBytes,
    diffBudget: undefined,
    input: { path: PATH, target: PATH, request, ...(moveTo ? { moveTo: { path: moveTo, target: moveTo } } : {}), ...(expectedVersion ? { expectedVersion } : {}) },
    stat: fileStat(),
    entry: undefined,
    aliasCandidate: false,
    snapshot: undefined,
    note: undefined,
    ...rest,
  };
}

/** The refusal's code, 'plan', 'encode' or 'need <fact>'. */
function outcome(decision: MutationDecision): string {
  if (decision.kind === 'need') return `need ${decision.need}`;
  if (decision.kind === 'encode') return 'encode';
  return isRefusal(decision.outcome) ? decision.outcome.code : 'plan';
}

const THREE = 'one\ntwo\nthree\n';

suite('decideMutation: a table of facts and decisions', () => {
  const rows: { name: string; facts: MutationFacts; expected: string }[] = [
    { name: 'a missing file, edited: its near misses are looked up first', facts: facts({ stat: undefined }), expected: 'need suggestions' },
    { name: 'a missing file, edited, near misses known', facts: facts({ stat: undefined, suggestions: [] }), expected: 'FILE_NOT_FOUND' },
    { name: 'a missing file the session saw', facts: facts({ stat: undefined, entry: entry() }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'a missing file with an expectedVersion', facts: facts({ stat: undefined, expectedVersion: 'v1' }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'a missing file created by an empty oldString', facts: facts({ stat: undefined, request: edit('', 'new\n') }), expected: 'plan' },
    { name: 'a missing file created and moved in one change', facts: facts({ stat: undefined, request: edit('', 'new\n'), moveTo: '/root/b.txt' }), expected: 'INVALID_INPUT' },
    { name: 'a missing file deleted', facts: facts({ stat: undefined, request: { kind: 'delete' }, suggestions: [] }), expected: 'FILE_NOT_FOUND' },
    { name: 'a directory', facts: facts({ stat: fileStat({ kind: 'directory' }) }), expected: 'TARGET_IS_DIRECTORY' },
    { name: 'a FIFO', facts: facts({ stat: fileStat({ kind: 'fifo' }) }), expected: 'SPECIAL_FILE' },
    { name: 'an existing file created again', facts: facts({ request: edit('', 'x') }), expected: 'FILE_EXISTS' },
    { name: 'a file with two hard links', facts: facts({ stat: fileStat({ nlink: 2 }) }), expected: 'WRITE_FAILED' },
    { name: 'a read-only file', facts: facts({ stat: fileStat({ mode: 0o444 }) }), expected: 'WRITE_FAILED' },
    { name: 'a file over the size limit', facts: facts({ stat: fileStat({ size: limits.maxFileBytes + 1 }) }), expected: 'FILE_TOO_LARGE' },
    { name: 'unsaved text deleted', facts: facts({ stat: fileStat({ revision: 'r2' }), request: { kind: 'delete' } }), expected: 'WRITE_FAILED' },
    { name: 'a move: whether its destination is taken is looked up first', facts: facts({ moveTo: '/root/b.txt', request: edit('two', 'TWO') }), expected: 'need destination' },
    { name: 'a move onto a taken name', facts: facts({ moveTo: '/root/b.txt', destinationTaken: true }), expected: 'FILE_EXISTS' },
    { name: 'an unread file: only its first bytes are sniffed, never its content', facts: facts(), expected: 'need head' },
    { name: 'an unread text file', facts: facts({ head: { binary: false } }), expected: 'EDIT_REQUIRES_PRIOR_READ' },
    { name: 'an unread binary file', facts: facts({ head: { binary: true, type: 'PNG image' } }), expected: 'BINARY_FILE' },
    { name: 'a file that appeared where the session saw nothing', facts: facts({ entry: entry({ version: undefined, identity: undefined }), head: { binary: false } }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'a file the session read: its content is loaded', facts: facts({ entry: entry() }), expected: 'need content' },
    { name: 'a read file loaded as binary', facts: facts({ entry: entry(), loaded: { kind: 'binary', type: 'PNG image', size: 20 } }), expected: 'BINARY_FILE' },
    { name: 'a read file, unchanged since', facts: facts({ entry: entry(), loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'plan' },
    { name: 'a read file changed since, without the text the session saw', facts: facts({ entry: entry(), loaded: { kind: 'text', file: text('one\nTwo\nthree\n', 'v2') } }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'a read file changed since in a line the session saw', facts: facts({ entry: entry(), snapshot: THREE, loaded: { kind: 'text', file: text('one\ntwo!\nthree\n', 'v2') } }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'a read file changed since only below what the session saw', facts: facts({ entry: entry({ seen: [1, 2] }), snapshot: THREE, loaded: { kind: 'text', file: text('one\ntwo\nthree!\n', 'v2') } }), expected: 'plan' },
    { name: 'an expectedVersion that is not the current one', facts: facts({ expectedVersion: 'v0', loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'FILE_CHANGED_SINCE_READ' },
    { name: 'an expectedVersion that is the current one', facts: facts({ expectedVersion: 'v1', loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'plan' },
    { name: 'another name of a file the session saw: its entry is looked up', facts: facts({ aliasCandidate: true, loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'need alias' },
    { name: 'another name, but not in the content the session saw', facts: facts({ aliasCandidate: true, alias: null, loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'EDIT_REQUIRES_PRIOR_READ' },
    { name: 'another name in the content the session saw', facts: facts({ aliasCandidate: true, alias: entry({ target: '/root/old.txt', path: '/root/old.txt' }), loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'plan' },
    { name: 'a write of a file seen in part', facts: facts({ request: { kind: 'write', content: 'x\n' }, entry: entry({ seen: [1, 2] }), loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'EDIT_OUTSIDE_SEEN_RANGE' },
    { name: 'a write of the content the file has', facts: facts({ request: { kind: 'write', content: THREE }, entry: entry(), loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'EDIT_NO_CHANGE' },
    { name: 'an edit of a line the session did not see', facts: facts({ request: edit('three', 'THREE'), entry: entry({ seen: [1, 2] }), loaded: { kind: 'text', file: text(THREE, 'v1') } }), expected: 'EDIT_OUTSIDE_SEEN_RANGE' },
    { name: 'a file in an encoding only the adapter knows: its codec encodes the new text', facts: facts({ entry: entry(), loaded: { kind: 'text', file: text(THREE, 'v1', { name: 'Windows 1252', decode: async () => '', encode: async () => new Uint8Array() }) } }), expected: 'encode' },
    { name: 'a new text the file would grow past the size limit with', facts: facts({ maxFileBytes: 16, entry: entry(), loaded: { kind: 'text', file: text(THREE, 'v1') }, request: edit('two', 'two two two') }), expected: 'FILE_TOO_LARGE' },
  ];
  for (const row of rows) {
    test(`${row.name} → ${row.expected}`, () => {
      assert.strictEqual(outcome(decideMutation(row.facts)), row.expected);
    });
  }

  test('what the ledger learns: a vanished file is recorded as missing; a change outside seen lines carries them to the new version', () => {
    const vanished = decideMutation(facts({ stat: undefined, entry: entry() }));
    assert.ok(vanished.kind === 'decided');
    assert.deepStrictEqual(vanished.ledgerUpdates.map((u) => [u.version, u.identity, u.seen, u.recordedAt]), [[undefined, undefined, [], 100]]);
    const carried = decideMutation(facts({ entry: entry({ seen: [1, 2] }), snapshot: THREE, loaded: { kind: 'text', file: text('one\ntwo\nthree!\n', 'v2') } }));
    assert.ok(carried.kind === 'decided' && !isRefusal(carried.outcome));
    assert.deepStrictEqual(carried.ledgerUpdates.map((u) => [u.version, u.seen]), [['v2', [1, 2]]]);
    assert.strictEqual(carried.outcome.afterText, 'one\nTWO\nthree!\n');
  });

  test('a refusal with the diff of what changed makes the lines it shows seen in the current version', () => {
    const touched = decideMutation(facts({ entry: entry(), snapshot: THREE, loaded: { kind: 'text', file: text('one\ntwo!\nthree\n', 'v2') } }));
    assert.ok(touched.kind === 'decided' && isRefusal(touched.outcome));
    assert.match(touched.outcome.message, /\+two!/);
    assert.deepStrictEqual(touched.ledgerUpdates.map((u) => [u.version, u.seen]), [['v2', [1, 3]]]);
  });

  test('an unread file is decided without its content: no row asks for it before the prior read is settled', () => {
    for (const over of [{}, { head: { binary: false } as const }, { head: { binary: true, type: 'PNG image' } as const }]) {
      const decision = decideMutation(facts(over));
      assert.notStrictEqual(outcome(decision), 'need content');
    }
  });
});
