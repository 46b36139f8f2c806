/**
 * Storing a batch of records: every change queued while the previous batch was being stored goes in the next
 * one, so recording keeps up with a burst of edits however fast they come (a batch costs about the same turns of
 * the event loop whatever its size). Per batch:
 *
 * 1. Before the lock: each change's versions are hashed, and those not known to be stored are compressed. A
 *    change larger than the whole budget is dropped here.
 * 2. Under the folder's lock: the records folder is read again (other processes' records), and each version the
 *    batch names is checked to be on disk now; those that are not are written, all in one `writeAll` (synced
 *    together). Only versions on disk are named, so no record ever names a version another process removed.
 * 3. Each record gets its place in its session (`previous`) and a checksum, and the records are written in one
 *    `writeAll`: a crash loses at most this batch, and never leaves a record without its versions.
 * 4. Versions this batch wrote that no record names (its records failed) are removed, and the budget applies.
 *
 * A failure drops only what it concerns: a change whose versions cannot be written (each change is tried alone
 * after a batch write fails), or the batch's records when their write fails; each is logged by the caller.
 */
import type { ChangedFile, ChangeRecord, RecordInput } from './changeRecord';
import { deepFreeze, isFileMode, parseRecord } from './changeRecord';
import type { StoredWrite } from './historyStorage';
import { refreshRecords } from './loadRecords';
import { applyBudgetLocked } from './maintenance';
import { encodeRecord, recordName } from './recordFile';
import { locked, type StoreContext, storedSize } from './storeContext';
import { blobName, compress, versionIdOf } from './versionStore';

export interface Queued {
  input: RecordInput;
  id: string;
  time: number;
  /** Bytes of content it holds in memory. */
  size: number;
  resolve(record: ChangeRecord | undefined): void;
}

interface PendingVersion {
  bytes: Uint8Array;
  compressed?: Uint8Array;
}

interface Prepared {
  queued: Queued;
  files: ChangedFile[];
  versions: Map<string, PendingVersion>;
}

/** Why a change was not recorded, for failures that are not I/O errors (the log's `reason`). */
export class NotRecorded extends Error {}

export function tooLarge(maxBytes: number): NotRecorded {
  return new NotRecorded(`the change alone is larger than the history's budget (${maxBytes} bytes)`);
}

const sum = (values: Iterable<number>): number => [...values].reduce((total, value) => total + value, 0);

async function prepare(ctx: StoreContext, queued: Queued): Promise<Prepared> {
  const versions = new Map<string, PendingVersion>();
  const idOf = async (bytes: Uint8Array | null): Promise<string | null> => {
    if (!bytes) return null;
    const id = await versionIdOf(bytes);
    if (!versions.has(id)) versions.set(id, { bytes });
    return id;
  };
  const files: ChangedFile[] = [];
  for (const file of queued.input.files) {
    const [before, after] = [await idOf(file.before), await idOf(file.after)];
    files.push({
      path: file.path,
      kind: file.kind,
      ...(file.from !== undefined ? { from: file.from } : {}),
      before,
      after,
      hunks: file.hunks ?? [],
      ...(isFileMode(file.mode) ? { mode: file.mode } : {}),
    });
  }
  for (const [id, version] of versions) if (!ctx.index.sizes.has(id)) version.compressed = await compress(version.bytes);
  if (sum([...versions.values()].map((version) => version.compressed?.byteLength ?? 0)) > ctx.limits().maxBytes) throw tooLarge(ctx.limits().maxBytes);
  return { queued, files, versions };
}

/** The versions of `batch` that are not on disk now, compressed, each once. */
async function missingVersions(ctx: StoreContext, batch: readonly Prepared[]): Promise<Map<string, Uint8Array>> {
  const missing = new Map<string, Uint8Array>();
  for (const { versions } of batch) {
    for (const [id, version] of versions) {
      if (missing.has(id)) continue;
      const size = await storedSize(ctx, id);
      if (size !== undefined) {
        ctx.index.sizes.set(id, size);
        continue;
      }
      missing.set(id, (version.compressed ??= await compress(version.bytes)));
    }
  }
  return missing;
}

function writeAll(ctx: StoreContext, files: readonly StoredWrite[]): Promise<void> {
  const { storage } = ctx;
  if (storage.writeAll) return storage.writeAll(files);
  return files.reduce<Promise<void>>((done, file) => done.then(() => storage.write(file.area, file.name, file.data)), Promise.resolve());
}

const versionWrites = (versions: ReadonlyMap<string, Uint8Array>): StoredWrite[] =>
  [...versions].map(([id, data]) => ({ area: 'versions', name: blobName(id), data }));

/**
 * Writes what the batch's versions lack; returns the changes that may be recorded. `written` collects every
 * version this may have stored, so those no record names in the end can be removed again.
 */
async function storeVersions(ctx: StoreContext, batch: readonly Prepared[], written: Map<string, number>, failed: Map<Prepared, unknown>): Promise<Prepared[]> {
  const missing = await missingVersions(ctx, batch);
  // Noted before the write: a write that fails part way may have placed some of them.
  for (const [id, data] of missing) written.set(id, data.byteLength);
  try {
    await writeAll(ctx, versionWrites(missing));
    return [...batch];
  } catch (error) {
    if (batch.length === 1) {
      failed.set(batch[0], error);
      return [];
    }
  }
  // One change alone may be what does not fit: each is tried on its own.
  const stored: Prepared[] = [];
  for (const prepared of batch) {
    const own = await missingVersions(ctx, [prepared]);
    for (const [id, data] of own) written.set(id, data.byteLength);
    try {
      await writeAll(ctx, versionWrites(own));
      stored.push(prepared);
    } catch (error) {
      failed.set(prepared, error);
    }
  }
  return stored;
}

/** The record of a prepared change after `previous` in its session, as a reload reads it back. */
function recordOf(prepared: Prepared, previous: string | undefined): ChangeRecord {
  const { input, id, time } = prepared.queued;
  const draft: ChangeRecord = {
    id,
    time,
    sessionId: input.sessionId,
    label: input.label,
    surface: input.surface,
    tool: input.tool,
    ...(input.explanation !== undefined ? { explanation: input.explanation } : {}),
    approvedBy: input.approvedBy,
    ...(input.revertOf !== undefined ? { revertOf: input.revertOf } : {}),
    ...(input.partial ? { partial: true as const } : {}),
    ...(previous !== undefined ? { previous } : {}),
    files: prepared.files,
  };
  // What a reload reads back (JSON drops what it cannot keep), so the record handed out is the one listed later.
  const record = parseRecord(JSON.parse(JSON.stringify(draft)));
  if (!record) throw new NotRecorded('the change does not make a valid record');
  return deepFreeze(record);
}

interface Encoded {
  prepared: Prepared;
  record: ChangeRecord;
  data: Uint8Array;
}

/** Encodes the records in order (each names the one before it in its session); a record that cannot be is failed. */
function encodeAll(ctx: StoreContext, batch: readonly Prepared[], written: ReadonlyMap<string, number>, failed: Map<Prepared, unknown>): Encoded[] {
  const encoded: Encoded[] = [];
  // The last record of each session in this batch, so the next one of the session names it.
  const last = new Map<string, string>();
  for (const prepared of batch) {
    try {
      const { sessionId } = prepared.queued.input;
      const record = recordOf(prepared, last.get(sessionId) ?? ctx.index.previousOf(sessionId));
      const data = encodeRecord(record);
      const own = sum([...prepared.versions.keys()].map((id) => written.get(id) ?? 0));
      if (data.byteLength + own > ctx.limits().maxBytes) throw tooLarge(ctx.limits().maxBytes);
      last.set(sessionId, record.id);
      encoded.push({ prepared, record, data });
    } catch (error) {
      failed.set(prepared, error);
    }
  }
  return encoded;
}

/** Writes the records (all or none of them stay); returns those stored. */
async function storeRecords(ctx: StoreContext, encoded: readonly Encoded[], failed: Map<Prepared, unknown>): Promise<Encoded[]> {
  try {
    await writeAll(
      ctx,
      encoded.map(({ record, data }) => ({ area: 'records', name: recordName(record.id), data })),
    );
    for (const { record, data } of encoded) ctx.index.adopt(record, data.byteLength);
    return [...encoded];
  } catch (error) {
    for (const { prepared, record } of encoded) {
      failed.set(prepared, error);
      await ctx.storage.remove('records', recordName(record.id)).catch(() => undefined);
    }
    return [];
  }
}

/** Removes versions this batch stored that no record names (the index is fresh: the lock is held). */
async function removeUnnamed(ctx: StoreContext, written: ReadonlyMap<string, number>): Promise<void> {
  if (!ctx.index.complete()) return;
  const named = ctx.index.named();
  for (const [id, size] of written) {
    if (named.has(id)) ctx.index.sizes.set(id, size);
    else await ctx.storage.remove('versions', blobName(id)).catch(() => undefined);
  }
}

/** Stores the batch (see the header); resolves each change with its record, or with the error that dropped it. */
export async function storeBatch(ctx: StoreContext, batch: readonly Queued[]): Promise<Map<Queued, ChangeRecord | { error: unknown }>> {
  const outcomes = new Map<Queued, ChangeRecord | { error: unknown }>();
  const prepared: Prepared[] = [];
  for (const queued of batch) {
    try {
      prepared.push(await prepare(ctx, queued));
    } catch (error) {
      outcomes.set(queued, { error });
    }
  }
  const failed = new Map<Prepared, unknown>();
  try {
    await locked(ctx, async () => {
      await refreshRecords(ctx);
      const written = new Map<string, number>();
      const storable = await storeVersions(ctx, prepared, written, failed);
      const stored = await storeRecords(ctx, encodeAll(ctx, storable, written, failed), failed);
      await removeUnnamed(ctx, written);
      for (const { prepared: done, record } of stored) outcomes.set(done.queued, record);
      await applyBudgetLocked(ctx);
    });
  } catch (error) {
    for (const one of prepared) if (!outcomes.has(one.queued)) failed.set(one, failed.get(one) ?? error);
  }
  for (const [one, error] of failed) outcomes.set(one.queued, { error });
  return outcomes;
}
