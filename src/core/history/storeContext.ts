/**
 * What the parts of the history share while they work on its folder: the storage, the log, the index of what is
 * there, the current limits and clock. `locked` runs work under the folder's lock (directly for a storage that
 * has none: one process's own).
 */
import { errnoOf } from '../fileErrors';
import type { Logger } from '../ports';
import type { BudgetLimits } from './budget';
import type { HistoryStorage } from './historyStorage';
import type { RecordIndex } from './recordIndex';
import { blobName } from './versionStore';

export interface StoreContext {
  readonly storage: HistoryStorage;
  readonly logger: Logger;
  readonly index: RecordIndex;
  limits(): BudgetLimits;
  /** The recording clock (record times, ages). */
  now(): number;
}

export function locked<T>(ctx: StoreContext, work: () => Promise<T>): Promise<T> {
  return ctx.storage.exclusive ? ctx.storage.exclusive(work) : work();
}

/** The stored size of a version, or undefined when it is not stored. */
export async function storedSize(ctx: StoreContext, versionId: string): Promise<number | undefined> {
  const { storage } = ctx;
  if (storage.stat) return (await storage.stat('versions', blobName(versionId)))?.size;
  return (await storage.read('versions', blobName(versionId)))?.byteLength;
}

export function errorData(error: unknown): Record<string, unknown> {
  const code = errnoOf(error);
  return { ...(code ? { code } : {}), error: error instanceof Error ? error.message : String(error) };
}
