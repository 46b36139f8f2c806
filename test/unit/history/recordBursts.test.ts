/**
 * Recording keeps up with an agent's burst of edits: records are stored in batches (each batch's files synced
 * together), so a headless server (`dist/mcp.js`, a real process) killed right after it answered its last edit
 * loses at most the records of the batch still being stored; every record that survived is whole and revertible. `dispose()` waits (bounded) for the
 * records still being stored, and nothing is written after it: a late record never re-creates the folder.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, createHistory, History } from '../../../src/core/index';
import type { HistoryArea, HistoryStorage } from '../../../src/core/index';
import { createNodeHistoryStorage } from '../../../src/core/nodeFs/historyStorage';
import { assertOk } from '../helpers/guardFixture';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../helpers/repoRoot';

const EDITS = 300;
/** What a crash right after the burst may lose: the batch being stored and what queued behind it. */
const MAY_LOSE = 30;

suite('history: bursts, crashes and dispose', () => {
  test(`a headless server SIGKILLed right after a burst of ${EDITS} edits loses at most the last batch; the rest are whole, in order`, async function () {
    this.timeout(120_000);
    const root = makeTempDir('readgate-burst-root-');
    const dir = path.join(makeTempDir('readgate-burst-'), 'history');
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'edit 0\n');
    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repoRoot, 'dist/mcp.js'), '--root', root, '--history', dir], stderr: 'pipe' });
    const client = new Client({ name: 'burst-test', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;
    try {
      await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
      // As an agent's calls arrive: one message each, the next as soon as the last is answered.
      for (let n = 1; n <= EDITS; n++) {
        const result = (await client.callTool({ name: 'readgate_write', arguments: { filePath: 'a.txt', content: `edit ${n}\n` } })) as { isError?: boolean };
        assert.ok(!result.isError, `edit ${n} failed`);
      }
      process.kill(pid, 'SIGKILL');
    } finally {
      await client.close().catch(() => undefined);
    }
    assert.strictEqual(fs.readFileSync(file, 'utf8'), `edit ${EDITS}\n`, 'premise: every edit was applied');
    const history = createHistory({ dir });
    const records = (await history.list()).reverse();
    const lost = EDITS - records.length;
    assert.ok(lost <= MAY_LOSE, `${lost} of ${EDITS} records lost`);
    for (const [i, record] of records.entries()) {
      const input = await history.revertInput(record);
      assert.ok(input, `record ${i + 1} has its contents`);
      assert.deepStrictEqual([Buffer.from(input.files[0].before as Uint8Array).toString(), Buffer.from(input.files[0].after as Uint8Array).toString()], [`edit ${i}\n`, `edit ${i + 1}\n`], 'the records kept are the first ones, in order');
    }
  });

  test('dispose() waits for the records still being stored; after it nothing is written, so a deleted folder stays deleted', async () => {
    const root = makeTempDir('readgate-dispose-root-');
    const dir = path.join(makeTempDir('readgate-dispose-'), 'history');
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'v0\n');
    const guard = createGuard({ roots: [root], history: { dir } });
    const session = guard.session('s');
    assertOk(await session.read(file));
    for (let i = 1; i <= 30; i++) assertOk(await session.write(file, `v${i}\n`));
    await guard.dispose();
    assert.strictEqual((await createHistory({ dir }).list()).length, 30, 'every record was stored before dispose() resolved');
    fs.rmSync(dir, { recursive: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(!fs.existsSync(dir), 'nothing re-created the folder');
  });

  test('close() waits no longer than its bound for a storage that never answers, and drops what it could not store', async () => {
    const real = createNodeHistoryStorage(path.join(makeTempDir(), 'h'));
    const never = (): Promise<void> => new Promise<void>(() => undefined);
    const hanging: HistoryStorage = { ...real, list: (area: HistoryArea) => real.list(area), write: never, writeAll: never };
    const logger = recordingLogger();
    const history = new History({ storage: hanging, logger });
    const recorded = history.record({ sessionId: 's', label: 'l', surface: 'api', tool: 'edit', approvedBy: 'approver', files: [{ path: 'a', kind: 'create', before: null, after: new Uint8Array([1]) }] });
    const started = Date.now();
    await history.close(200);
    assert.ok(Date.now() - started < 5_000, 'close() returned within its bound');
    const later = await history.record({ sessionId: 's', label: 'l', surface: 'api', tool: 'edit', approvedBy: 'approver', files: [{ path: 'b', kind: 'create', before: null, after: new Uint8Array([2]) }] });
    assert.strictEqual(later, undefined, 'a closed history records nothing');
    void recorded;
  });
});
