/**
 * What a record file proves about itself: each carries the SHA-256 of its record, so a flipped byte that still
 * leaves valid JSON (a change moved into another session) is damage, not a record. Damage is a file read whole
 * that fails its checks; it is set aside in `damaged/` with a warning, never deleted. A file of a newer format is
 * not damage either: it is left where it is. Records of the first format (no checksum) still load.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createHistory } from '../../../src/core/index';
import type { RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const change = (sessionId: string): RecordInput => ({
  sessionId,
  label: 'test',
  surface: 'api',
  tool: 'edit',
  approvedBy: 'approver',
  files: [{ path: '/w/a.txt', kind: 'edit', before: bytes('one\n'), after: bytes('two\n') }],
});

suite('history: record integrity', () => {
  test('a flipped bit that leaves valid JSON (session s1 becomes s3) is damage: set aside and logged, never listed under another session', async () => {
    const dir = makeTempDir();
    const record = await createHistory({ dir }).record(change('s1'));
    const file = path.join(dir, 'records', `${record!.id}.json`);
    const data = fs.readFileSync(file);
    const at = data.indexOf('"sessionId":"s1"') + '"sessionId":"s'.length;
    assert.ok(at > 20, 'premise: the session id is in the file');
    data[at] ^= 0x02; // '1' (0x31) -> '3' (0x33)
    fs.writeFileSync(file, data);
    JSON.parse(data.toString()); // still valid JSON
    const logger = recordingLogger();
    const reloaded = createHistory({ dir, logger });
    assert.deepStrictEqual(await reloaded.list({ sessionId: 's3' }), []);
    assert.deepStrictEqual(await reloaded.list(), []);
    assert.ok(!fs.existsSync(file));
    assert.deepStrictEqual(fs.readFileSync(path.join(dir, 'damaged', 'records', `${record!.id}.json`)), data, 'kept byte for byte in damaged/');
    assert.match(JSON.stringify(logger.warnings()), /damaged/);
  });

  test('a record file that is not JSON is set aside, not deleted; the others load', async () => {
    const dir = makeTempDir();
    const good = await createHistory({ dir }).record(change('s'));
    const broken = path.join(dir, 'records', '0000000aa-00000-000000000000.json');
    fs.writeFileSync(broken, '{"format":2,"record":{');
    const logger = recordingLogger();
    assert.deepStrictEqual((await createHistory({ dir, logger }).list()).map((r) => r.id), [good!.id]);
    assert.strictEqual(logger.warnings().length, 1);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'damaged', 'records', path.basename(broken)), 'utf8'), '{"format":2,"record":{');
  });

  test('a record of a newer format is left in place, with a warning, and not counted as damage', async () => {
    const dir = makeTempDir();
    await createHistory({ dir }).record(change('s'));
    const newer = path.join(dir, 'records', '0000000bb-00000-000000000000.json');
    fs.writeFileSync(newer, '{"format":99,"whatever":true}');
    const logger = recordingLogger();
    assert.strictEqual((await createHistory({ dir, logger }).list()).length, 1);
    assert.ok(fs.existsSync(newer));
    assert.ok(!fs.existsSync(path.join(dir, 'damaged')));
    assert.match(JSON.stringify(logger.warnings()), /newer/);
  });

  test('a record of the first format (no checksum) still loads', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir });
    const record = await history.record(change('old'));
    const file = path.join(dir, 'records', `${record!.id}.json`);
    const { record: inner } = JSON.parse(fs.readFileSync(file, 'utf8')) as { record: unknown };
    fs.writeFileSync(file, JSON.stringify({ format: 1, record: inner }));
    assert.deepStrictEqual(await createHistory({ dir }).list(), [record]);
  });
});
