/**
 * Keeping the folder within its budget and free of orphans, safely while other processes record into it. Each is
 * decided on the index first (no lock, so a process with nothing to remove never waits for one), then again
 * under the folder's lock on a fresh view of the records, and only then carried out: a version any record names
 * is never removed; a version no record names (its record may still be on its way from another process) only once
 * it is older than the grace period; and no version at all while a record file cannot be read.
 */
import { type BudgetDecision, decideBudget, decideOrphans } from './budget';
import { versionsOf } from './changeRecord';
import { refreshRecords } from './loadRecords';
import { recordName } from './recordFile';
import { newestFirst } from './recordIndex';
import { errorData, locked, type StoreContext, storedSize } from './storeContext';
import { blobName, troubleOf, versionIdOfName } from './versionStore';

/** A version no record names is kept this long: its record may still be on its way from another process. */
export const ORPHAN_GRACE_MS = 10 * 60 * 1000;

/** The budget's decision on the index as it is, with the size of each version it names (looked up if unknown). */
async function budgetDecision(ctx: StoreContext): Promise<BudgetDecision> {
  const { index } = ctx;
  const oldestFirst = index.records().sort((a, b) => newestFirst(b.record, a.record));
  for (const versionId of index.named()) {
    if (!index.sizes.has(versionId)) index.sizes.set(versionId, (await storedSize(ctx, versionId)) ?? 0);
  }
  const records = oldestFirst.map(({ record, bytes }) => ({ id: record.id, time: record.time, bytes, versions: versionsOf(record) }));
  return decideBudget(records, index.sizes, ctx.now(), ctx.limits());
}

/**
 * Applies the budget; the caller holds the lock and has just refreshed the index. With a record file unread, only
 * records are dropped: the versions they alone seemed to name may be named by the unread one, and stay (as
 * orphans, removed once every record file reads).
 */
export async function applyBudgetLocked(ctx: StoreContext): Promise<void> {
  const { index, storage, logger } = ctx;
  let decision: BudgetDecision = { drop: [], freed: [] };
  try {
    decision = await budgetDecision(ctx);
    for (const id of decision.drop) {
      await storage.remove('records', recordName(id));
      index.forget(id);
    }
    if (!index.complete()) decision.freed = [];
    for (const versionId of decision.freed) {
      await storage.remove('versions', blobName(versionId));
      index.sizes.delete(versionId);
    }
  } catch (error) {
    logger.warn('[history] could not remove old history; it is kept for now', errorData(error));
  }
  if (decision.drop.length) logger.info('[history] dropped old records', { count: decision.drop.length, ...ctx.limits() });
}

/** Applies the budget if the index says anything is due (then under the lock, on a fresh view). */
export async function applyBudget(ctx: StoreContext): Promise<void> {
  if ((await budgetDecision(ctx)).drop.length === 0) return;
  await locked(ctx, async () => {
    await refreshRecords(ctx);
    await applyBudgetLocked(ctx);
  });
}

/** Removes orphans older than the grace period (wall-clock file times). Never rejects: it only tidies. */
export async function sweepOrphans(ctx: StoreContext): Promise<void> {
  const { index, storage, logger } = ctx;
  try {
    const stored = (await storage.list('versions')).flatMap((file) => {
      const id = versionIdOfName(file.name);
      return id ? [{ id, size: file.size, mtimeMs: file.mtimeMs }] : [];
    });
    for (const { id, size } of stored) index.sizes.set(id, size);
    if (!index.complete() || decideOrphans(stored, index.named(), Date.now(), ORPHAN_GRACE_MS).length === 0) return;
    const removed = await locked(ctx, async () => {
      await refreshRecords(ctx);
      if (!index.complete()) return 0;
      const orphans = decideOrphans(stored, index.named(), Date.now(), ORPHAN_GRACE_MS);
      for (const versionId of orphans) {
        const now = storage.stat ? await storage.stat('versions', blobName(versionId)) : undefined;
        // Written again since the listing (a new record of those bytes on its way): not an orphan now.
        if (now?.mtimeMs !== undefined && Date.now() - now.mtimeMs <= ORPHAN_GRACE_MS) continue;
        await storage.remove('versions', blobName(versionId));
        index.sizes.delete(versionId);
      }
      return orphans.length;
    });
    if (removed) logger.debug('[history] removed versions no record names', { count: removed });
  } catch (error) {
    logger.debug('[history] could not look for versions no record names', { error: troubleOf(error) });
  }
}
