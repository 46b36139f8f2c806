import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';
import { STUB_TAG, ToolResultStore, safeCallId } from '../../../src/core/results/toolResultStore';
import { makeTempDir } from '../helpers/tempDir';

function store(options: Partial<ConstructorParameters<typeof ToolResultStore>[0]> = {}) {
  const dir = path.join(makeTempDir(), 'tool-results');
  return { dir, results: new ToolResultStore({ dir, fileSystem: createNodeFileSystem(), threshold: 100, previewChars: 20, ...options }) };
}

const big = (n: number): string => 'x'.repeat(n);

suite('oversized tool results', () => {
  test('a result over the threshold is saved with mode 0600 and replaced by a stub naming the file', async () => {
    const { dir, results } = store();
    const text = `HEAD${big(500)}`;
    const outcome = await results.persist('s1', 'call_1', 'search', text);
    assert.ok(outcome.persisted);
    assert.strictEqual(outcome.path, path.join(dir, 'call_1.txt'));
    assert.strictEqual(fs.readFileSync(outcome.path, 'utf8'), text);
    assert.strictEqual(fs.statSync(outcome.path).mode & 0o777, 0o600);
    assert.ok(outcome.text.startsWith(STUB_TAG) && outcome.text.includes(outcome.path) && outcome.text.includes('HEADxxxxxxxxxxxxxxxx'));
    assert.ok(outcome.text.length < 600);
  });

  test('short results, ReadGate read results and existing stubs are returned untouched', async () => {
    const { results } = store();
    assert.strictEqual((await results.persist('s', 'a', 'search', 'short')).text, 'short');
    assert.deepStrictEqual(await results.persist('s', 'b', 'readgate_read', big(500)), { persisted: false, text: big(500), reason: 'exempt' });
    const stub = (await results.persist('s', 'c', 'search', big(500))).text;
    const again = await results.persist('s', 'd', 'search', stub + big(500));
    assert.strictEqual(again.persisted, false);
    assert.strictEqual(!again.persisted && again.reason, 'already-stub');
  });

  test('call ids become safe file names: no path, no NUL, nothing that escapes the folder', () => {
    assert.strictEqual(safeCallId('../../etc/passwd'), 'passwd');
    assert.strictEqual(safeCallId('a\0b c:d'), 'ab_c_d');
    assert.strictEqual(safeCallId('..'), 'call');
    assert.strictEqual(safeCallId('C:\\temp\\x'), 'x');
  });

  test('past the per-file or per-session budget the stub says the full result was not kept', async () => {
    const { dir, results } = store({ maxFileBytes: 1000, maxSessionBytes: 1500 });
    const tooBig = await results.persist('s', 'a', 'search', big(2000));
    assert.ok(!tooBig.persisted && tooBig.reason === 'budget' && tooBig.text.includes('was NOT kept'));
    assert.ok((await results.persist('s', 'b', 'search', big(900))).persisted);
    const over = await results.persist('s', 'c', 'search', big(900));
    assert.ok(!over.persisted && over.reason === 'budget' && over.text.includes('already saved 900'));
    assert.ok((await results.persist('other', 'd', 'search', big(900))).persisted, 'budgets are per session');
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['b.txt', 'd.txt']);
  });

  test('a failed write keeps a truncated preview that says so', async () => {
    const failing: FileSystem = { ...createNodeFileSystem(), writeFile: async () => Promise.reject(Object.assign(new Error('full'), { code: 'ENOSPC' })) };
    const { results } = store({ fileSystem: failing });
    const outcome = await results.persist('s', 'a', 'search', big(500));
    assert.ok(!outcome.persisted && outcome.reason === 'write-failed');
    assert.match(outcome.text, /Saving the full result failed \(ENOSPC\); it was truncated to this preview/);
  });

  test('cleanup removes saved results older than the maximum age and keeps newer ones', async () => {
    let now = Date.now();
    const { dir, results } = store({ clock: { now: () => now }, maxAgeMs: 60_000 });
    await results.persist('s', 'old', 'search', big(500));
    const old = path.join(dir, 'old.txt');
    const past = new Date(now - 120_000);
    fs.utimesSync(old, past, past);
    await results.persist('s', 'new', 'search', big(500));
    assert.strictEqual(await results.cleanup(), 1);
    assert.deepStrictEqual(fs.readdirSync(dir), ['new.txt']);
    now += 10 * 60_000;
    assert.strictEqual(await results.cleanup(), 1);
  });

  test('a result that only mentions the stub tag inside its text is still persisted', async () => {
    const { results } = store();
    const outcome = await results.persist('s', 'mention', 'search', `grep output: <persisted-output path="x"> ${big(500)}`);
    assert.ok(outcome.persisted, 'only a result that starts with the tag is a stub');
  });

  test('configure applies a new threshold and budgets to later results', async () => {
    const { results } = store();
    results.configure({ threshold: 1000 });
    assert.strictEqual((await results.persist('s', 'a', 'search', big(500))).persisted, false);
    results.configure({ maxFileBytes: 1200 });
    const tooBig = await results.persist('s', 'b', 'search', big(1500));
    assert.ok(!tooBig.persisted && tooBig.reason === 'budget');
    results.configure({ threshold: -1, maxFileBytes: 0 }); // nonsense is ignored
    assert.strictEqual((await results.persist('s', 'c', 'search', big(1100))).persisted, true);
  });

  test('list names the saved results newest first and skips anything that is not a saved result', async () => {
    const { dir, results } = store();
    await results.persist('s', 'first', 'search', big(500));
    await results.persist('s', 'second', 'search', big(600));
    const earlier = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'first.txt'), earlier, earlier);
    fs.mkdirSync(path.join(dir, 'folder.txt'));
    fs.writeFileSync(path.join(dir, 'notes.md'), 'x');
    fs.symlinkSync(path.join(dir, 'second.txt'), path.join(dir, 'link.txt'));
    const listed = await results.list();
    assert.deepStrictEqual(listed.map((saved) => [saved.name, saved.bytes]), [['second.txt', 600], ['first.txt', 500]]);
    assert.deepStrictEqual(await store().results.list(), [], 'a missing folder lists nothing');
  });
});
