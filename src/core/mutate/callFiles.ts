/**
 * The files of one call, each stat'ed and loaded at most once: the stats taken when the call's locks were held,
 * and each file's content the first time the call needs it. A refresh during review starts a new one, so it sees
 * the files as they are then.
 */
import type { GuardContext } from '../context/guardContext';
import type { FileStat } from '../ports';
import { type LoadedFile, loadFile } from '../text/loadText';

export class CallFiles {
  private readonly stats: Map<string, FileStat | undefined>;
  private readonly loads = new Map<string, Promise<LoadedFile>>();

  constructor(
    private readonly ctx: GuardContext,
    stats: ReadonlyMap<string, FileStat | undefined> = new Map(),
  ) {
    this.stats = new Map(stats);
  }

  async stat(target: string): Promise<FileStat | undefined> {
    if (!this.stats.has(target)) this.stats.set(target, await this.ctx.fs.stat(target));
    return this.stats.get(target);
  }

  /** The file's content as loaded the first time it was asked for in this call. */
  load(target: string, stat: FileStat): Promise<LoadedFile> {
    let loaded = this.loads.get(target);
    if (!loaded) this.loads.set(target, (loaded = loadFile(this.ctx, target, stat)));
    return loaded;
  }
}
