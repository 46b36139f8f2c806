/**
 * A change record as a file: `{"format":2,"sha256":"<hex>","record":{…}}`, where `sha256` is the hash of the
 * record as `JSON.stringify` writes it. Reading parses the record and hashes it written out again: JSON's
 * text round-trips exactly through parse and stringify (key order, numbers, escapes), so any changed byte that
 * still leaves valid JSON (a session id, a version id) fails the check. Files of the first format (no checksum)
 * are still read; a format newer than this one is not judged at all.
 *
 * Pure: what a file's bytes say, never what to do about it (the history sets damage aside and skips the rest).
 */
import { createHash } from 'node:crypto';
import { type ChangeRecord, parseRecord } from './changeRecord';

export const RECORD_FORMAT = 2;
const FIRST_FORMAT = 1;
const SUFFIX = '.json';

export type DecodedRecord =
  /** A valid record whose id is its file's name. */
  | { record: ChangeRecord }
  /** Read whole, and not a record: why. */
  | { damaged: string }
  /** Written by a newer ReadGate: neither a record nor damage to this one. */
  | { newer: number };

export const recordName = (id: string): string => id + SUFFIX;

export function idOfRecordName(name: string): string | undefined {
  return name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : undefined;
}

const checksum = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The file's bytes for a record (which must already be what `parseRecord` gives back). */
export function encodeRecord(record: ChangeRecord): Uint8Array {
  const text = JSON.stringify(record);
  return new TextEncoder().encode(`{"format":${RECORD_FORMAT},"sha256":"${checksum(text)}","record":${text}}`);
}

function parsedFile(data: Uint8Array): { format?: unknown; sha256?: unknown; record?: unknown } | string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return 'not UTF-8';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : 'not a JSON object';
  } catch {
    return 'not JSON';
  }
}

/** What the file `name` holding `data` is. */
export function decodeRecord(data: Uint8Array, name: string): DecodedRecord {
  const file = parsedFile(data);
  if (typeof file === 'string') return { damaged: file };
  const { format } = file;
  if (typeof format === 'number' && Number.isInteger(format) && format > RECORD_FORMAT) return { newer: format };
  if (format !== RECORD_FORMAT && format !== FIRST_FORMAT) return { damaged: `unknown format ${JSON.stringify(format)}` };
  if (format === RECORD_FORMAT && file.sha256 !== checksum(JSON.stringify(file.record) ?? '')) return { damaged: 'its checksum does not match' };
  const record = parseRecord(file.record);
  if (!record) return { damaged: 'not a valid change record' };
  if (record.id !== idOfRecordName(name)) return { damaged: 'its id is not its file name' };
  return { record };
}
