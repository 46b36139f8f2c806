/**
 * Running an export (`History.exportJsonLines`): the records as they are on disk now, oldest first, each line
 * written as soon as it is made; every file that could not be read is left out, never a reason to fail, and
 * named in the last line (`exportLines.ts`). Only the caller's `write` can make it reject.
 */
import type { ChangeRecord } from './changeRecord';
import { versionsOf } from './changeRecord';
import { type ExportOptions, exportLine, type OmittedItem, omittedLine } from './exportLines';
import { idOfRecordName } from './recordFile';
import type { RecordIndex } from './recordIndex';
import type { StoreContext } from './storeContext';
import { problemOf, readVersion } from './versionReads';

/** Each version the record names, with its bytes or undefined (and what was left out, in `omitted`). */
async function contentsOf(ctx: StoreContext, record: ChangeRecord, omitted: OmittedItem[]): Promise<Map<string, Uint8Array | undefined>> {
  const contents = new Map<string, Uint8Array | undefined>();
  for (const version of versionsOf(record)) {
    const read = await readVersion(ctx, version);
    const path = record.files.find((file) => file.before === version || file.after === version)?.path ?? '';
    const problem = problemOf(read, version, path);
    if (problem) omitted.push({ change: record.id, version, path, reason: problem.reason });
    contents.set(version, 'bytes' in read ? read.bytes : undefined);
  }
  return contents;
}

/** Record files the index could not read (or may not judge), as items left out. */
function unreadRecords(index: RecordIndex): OmittedItem[] {
  const items: OmittedItem[] = [...index.unreadable].map(([name, reason]) => ({ change: idOfRecordName(name) ?? name, reason }));
  for (const name of index.newer) items.push({ change: idOfRecordName(name) ?? name, reason: 'written by a newer version of ReadGate' });
  return items;
}

export interface ExportRun {
  records: readonly ChangeRecord[];
  /** Left out before any line: the folder could not be listed, or record files could not be read. */
  omitted: OmittedItem[];
}

export async function writeExport(ctx: StoreContext, run: ExportRun, write: (line: string) => void | Promise<void>, options: ExportOptions): Promise<number> {
  const omitted = [...run.omitted, ...unreadRecords(ctx.index)];
  for (const record of run.records) await write(exportLine(record, options.contents ? await contentsOf(ctx, record, omitted) : undefined));
  if (omitted.length) {
    await write(omittedLine(omitted));
    ctx.logger.warn('[history] the export left out what it could not read', { count: omitted.length, first: omitted[0] });
  }
  return run.records.length;
}
