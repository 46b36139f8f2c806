/**
 * An export never fails because of one file: a content file it cannot read (a folder in its place, a damaged
 * one) is exported as null, and a last line `{"omitted":[…]}` names each change and version left out and why.
 * (Unreadable for another user's permissions: `realFaults/historyTransientErrors.test.ts`.)
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { createHistory } from '../../../src/core/index';
import type { RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const change = (before: string, after: string): RecordInput => ({
  sessionId: 's',
  label: 'test',
  surface: 'api',
  tool: 'edit',
  approvedBy: 'approver',
  files: [{ path: '/w/a.txt', kind: 'edit', before: bytes(before), after: bytes(after) }],
});

type Line = { id?: string; contents?: Record<string, string | null>; omitted?: { change?: string; version?: string; reason: string }[] };

suite('history: an export with files it cannot read', () => {
  test('a folder in place of a content file: every record is exported, that content is null, and the last line names it', async () => {
    const dir = makeTempDir();
    const logger = recordingLogger();
    const history = createHistory({ dir, logger });
    const first = await history.record(change('one\n', 'two\n'));
    const second = await history.record(change('two\n', 'three\n'));
    const gone = second!.files[0].after!;
    const blob = path.join(dir, 'versions', gone.slice(0, 2), `${gone}.gz`);
    fs.rmSync(blob);
    fs.mkdirSync(blob);
    const lines: string[] = [];
    const count = await history.exportJsonLines((line) => void lines.push(line), { contents: true });
    assert.strictEqual(count, 2);
    const parsed = lines.map((line) => JSON.parse(line) as Line);
    assert.deepStrictEqual(parsed.slice(0, 2).map((line) => line.id), [first!.id, second!.id]);
    assert.strictEqual(parsed[1].contents![gone], null);
    assert.strictEqual(Buffer.from(parsed[1].contents![second!.files[0].before!]!, 'base64').toString(), 'two\n');
    assert.deepStrictEqual(parsed[2].omitted?.map((item) => [item.change, item.version]), [[second!.id, gone]]);
    assert.match(parsed[2].omitted![0].reason, /not a regular file|EISDIR/);
    assert.ok(fs.statSync(blob).isDirectory(), 'what is in its place is left alone');
    assert.match(JSON.stringify(logger.warnings()), /left out/);
  });

  test('a damaged content file is set aside, exported as null and named in the last line; a complete export has no such line', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir, logger: recordingLogger() });
    const record = await history.record(change('alpha\n', 'beta\n'));
    const plain: string[] = [];
    await history.exportJsonLines((line) => void plain.push(line), { contents: true });
    assert.strictEqual(plain.length, 1, 'nothing left out, no extra line');
    const damaged = record!.files[0].before!;
    const blob = path.join(dir, 'versions', damaged.slice(0, 2), `${damaged}.gz`);
    fs.writeFileSync(blob, zlib.gzipSync('something else\n'));
    const lines: string[] = [];
    assert.strictEqual(await history.exportJsonLines((line) => void lines.push(line), { contents: true }), 1);
    const parsed = lines.map((line) => JSON.parse(line) as Line);
    assert.strictEqual(parsed[0].contents![damaged], null);
    assert.deepStrictEqual(parsed[1].omitted?.map((item) => [item.change, item.version]), [[record!.id, damaged]]);
    assert.match(parsed[1].omitted![0].reason, /damaged/);
    assert.ok(fs.existsSync(path.join(dir, 'damaged', 'versions', `${damaged}.gz`)), 'kept aside, not deleted');
  });
});
