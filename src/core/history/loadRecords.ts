/**
 * Bringing the index up to date with the records folder, which other processes change too: one listing of the
 * names, records gone from it are forgotten, and only files not seen before are read. This runs before every
 * listing, lookup, export and revert, and under the lock before a batch is stored and before anything is
 * removed, so a guard sees what other processes recorded and no removal is decided on an old view.
 *
 * Damage is a file read whole that fails its checks (`recordFile.ts`): it is set aside (`damaged/`) with a
 * warning, never deleted. Trouble is anything that stops a read (EMFILE, EACCES, EIO…): the file is skipped for
 * this look, kept, and read again next time; files that failed in a group are tried once more one at a time
 * (too many open files is a matter of how many at once). A file of a newer format is left alone.
 */
import { decodeRecord, idOfRecordName, recordName } from './recordFile';
import type { DecodedRecord } from './recordFile';
import type { StoreContext } from './storeContext';
import { troubleOf } from './versionStore';

const LOAD_BATCH = 32;
const NAMES_LOGGED = 5;

type Outcome = { decoded: DecodedRecord; bytes: number } | { trouble: string } | { missing: true };

async function readOne(ctx: StoreContext, name: string): Promise<Outcome> {
  try {
    const data = await ctx.storage.read('records', name);
    return data ? { decoded: decodeRecord(data, name), bytes: data.byteLength } : { missing: true };
  } catch (error) {
    return { trouble: troubleOf(error) };
  }
}

async function setAside(ctx: StoreContext, name: string, reason: string): Promise<void> {
  const { storage, logger } = ctx;
  try {
    if (!storage.setAside) throw new Error('this storage cannot set files aside');
    await storage.setAside('records', name);
    logger.warn('[history] a damaged record file was set aside', { name, reason, to: 'damaged/records' });
  } catch (error) {
    ctx.index.skipped.add(name);
    logger.warn('[history] a damaged record file is skipped; it could not be set aside', { name, reason, error: troubleOf(error) });
  }
}

/** What one file turned out to be, applied to the index; returns its trouble, if any. */
async function settle(ctx: StoreContext, name: string, outcome: Outcome): Promise<string | undefined> {
  if ('trouble' in outcome) return outcome.trouble;
  if ('missing' in outcome) return undefined; // removed since the listing: nothing to do
  const { decoded } = outcome;
  if ('record' in decoded) ctx.index.adopt(decoded.record, outcome.bytes);
  else if ('damaged' in decoded) await setAside(ctx, name, decoded.damaged);
  else if (!ctx.index.newer.has(name)) {
    ctx.index.newer.add(name);
    ctx.logger.warn('[history] a record file of a newer format is left as it is', { name, format: decoded.newer });
  }
  return undefined;
}

async function listNames(ctx: StoreContext): Promise<string[]> {
  const { storage } = ctx;
  return storage.names ? storage.names('records') : (await storage.list('records')).map((file) => file.name);
}

function noteTrouble(ctx: StoreContext, trouble: Map<string, string>): void {
  const { index, logger } = ctx;
  const fresh = [...trouble.keys()].filter((name) => !index.unreadable.has(name));
  index.unreadable = trouble;
  if (fresh.length === 0) return;
  const reason = trouble.get(fresh[0]);
  logger.warn('[history] could not read record files; they are kept and read again next time', {
    count: trouble.size,
    reason,
    names: [...trouble.keys()].slice(0, NAMES_LOGGED),
  });
}

/** Re-reads the records folder into the index (see the header). Rejects only when the folder cannot be listed. */
export async function refreshRecords(ctx: StoreContext): Promise<void> {
  const { index } = ctx;
  const names = await listNames(ctx);
  const present = new Set(names);
  for (const { record } of index.records()) if (!present.has(recordName(record.id))) index.forget(record.id);
  for (const set of [index.newer, index.skipped]) for (const name of [...set]) if (!present.has(name)) set.delete(name);
  const fresh = names.filter((name) => !index.has(idOfRecordName(name) ?? '') && !index.newer.has(name) && !index.skipped.has(name));
  const failed: string[] = [];
  for (let at = 0; at < fresh.length; at += LOAD_BATCH) {
    const group = fresh.slice(at, at + LOAD_BATCH);
    const outcomes = await Promise.all(group.map((name) => readOne(ctx, name)));
    for (const [i, outcome] of outcomes.entries()) if (await settle(ctx, group[i], outcome)) failed.push(group[i]);
  }
  const trouble = new Map<string, string>();
  for (const name of failed) {
    const reason = await settle(ctx, name, await readOne(ctx, name));
    if (reason) trouble.set(name, reason);
  }
  noteTrouble(ctx, trouble);
}
