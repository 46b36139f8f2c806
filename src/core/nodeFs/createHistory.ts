/**
 * A history kept in a folder on this machine: what `createGuard({ history: { dir, maxBytes?, maxAgeDays? } })`
 * and the extension (its workspace storage) use. The folder holds nothing but the history (see
 * `nodeFs/historyStorage.ts` for its layout), and other processes' histories may share it; nothing is read or
 * written before the first call.
 */
import { createNodeHistoryStorage } from './historyStorage';
import { History, type HistoryOptions } from '../history/history';

export interface FolderHistoryOptions extends Omit<HistoryOptions, 'storage'> {
  /** Absolute folder for the history (created mode 0700 when missing). */
  dir: string;
}

export function createHistory(options: FolderHistoryOptions): History {
  const { dir, ...rest } = options;
  return new History({ ...rest, storage: createNodeHistoryStorage(dir) });
}
