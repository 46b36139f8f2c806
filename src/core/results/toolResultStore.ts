/**
 * Oversized tool results: a result longer than the threshold is saved to
 * `<dir>/<callId>.txt` (mode 0600, atomic, the call id reduced to a safe file name) and replaced by a preview
 * stub that names the file, so the model's context stays small and the full output stays readable (the folder
 * is a root the read tool may use). ReadGate's own read results are exempt, and a stub is never persisted again.
 *
 * Budgets bound the disk: a file larger than `maxFileBytes` is not saved, nor anything once a session has
 * saved `maxSessionBytes`; the stub then says the full result was not kept. A failed write keeps a truncated
 * preview that says so. Files older than `maxAgeMs` are removed by `cleanup()`.
 *
 * Not here: deciding which calls produce results (the chat participant's loop does), or reading them back.
 */
import * as nodePath from 'node:path';
import { DEFAULTS } from '../defaults';
import { errnoOf } from '../fileErrors';
import type { Clock, FileSystem } from '../ports';
import { formatCount } from '../text/formatCount';

export const STUB_TAG = '<persisted-output';

export interface ToolResultStoreOptions {
  /** Absolute folder for the saved results (e.g. the extension's storage + `/tool-results`). */
  dir: string;
  fileSystem: FileSystem;
  clock?: Clock;
  /** Results longer than this many characters are persisted (default 28,000). */
  threshold?: number;
  /** Characters of preview in the stub (default 2,000). */
  previewChars?: number;
  /** Largest result saved, in bytes (default 50 MB). */
  maxFileBytes?: number;
  /** Bytes one session may save in all (default 500 MB). */
  maxSessionBytes?: number;
  /** Saved results older than this are removed by cleanup() (default 24 h). */
  maxAgeMs?: number;
  /** Tools whose results are never persisted (default: ReadGate's read tool). */
  exemptTools?: readonly string[];
}

export type PersistOutcome =
  | { persisted: false; text: string; reason: 'below-threshold' | 'exempt' | 'already-stub' }
  | { persisted: false; text: string; reason: 'budget' | 'write-failed'; detail: string }
  | { persisted: true; text: string; path: string; bytes: number };

/** A call id as a file name: its last path segment, without NUL, separators or anything but [\w.-]. */
export function safeCallId(callId: string): string {
  const base = String(callId).split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/\0/g, '')
    .replace(/[^\w.-]/g, '_')
    .replace(/^\.+/, '');
  return cleaned.slice(0, 120) || 'call';
}

export class ToolResultStore {
  private readonly usedBySession = new Map<string, number>();
  private threshold: number;
  private readonly previewChars: number;
  private maxFileBytes: number;
  private maxSessionBytes: number;
  private readonly maxAgeMs: number;
  private readonly exempt: ReadonlySet<string>;

  constructor(private readonly options: ToolResultStoreOptions) {
    this.threshold = options.threshold ?? DEFAULTS.toolResultThreshold;
    this.previewChars = options.previewChars ?? 2_000;
    this.maxFileBytes = options.maxFileBytes ?? 50 * 1024 * 1024;
    this.maxSessionBytes = options.maxSessionBytes ?? 500 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 24 * 60 * 60 * 1000;
    this.exempt = new Set(options.exemptTools ?? ['readgate_read']);
  }

  /** Applies new limits (a setting changed); bytes already saved stay counted against the session budget. */
  configure(options: Pick<ToolResultStoreOptions, 'threshold' | 'maxFileBytes' | 'maxSessionBytes'>): void {
    const positive = (value: number | undefined) => typeof value === 'number' && value > 0;
    if (positive(options.threshold)) this.threshold = options.threshold!;
    if (positive(options.maxFileBytes)) this.maxFileBytes = options.maxFileBytes!;
    if (positive(options.maxSessionBytes)) this.maxSessionBytes = options.maxSessionBytes!;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** Bytes this session has saved so far. */
  usedBy(sessionId: string): number {
    return this.usedBySession.get(sessionId) ?? 0;
  }

  async persist(sessionId: string, callId: string, toolName: string, text: string): Promise<PersistOutcome> {
    if (this.exempt.has(toolName)) return { persisted: false, text, reason: 'exempt' };
    if (text.startsWith(STUB_TAG)) return { persisted: false, text, reason: 'already-stub' };
    if (text.length <= this.threshold) return { persisted: false, text, reason: 'below-threshold' };
    const data = new TextEncoder().encode(text);
    const used = this.usedBy(sessionId);
    if (data.length > this.maxFileBytes || used + data.length > this.maxSessionBytes) {
      const detail =
        data.length > this.maxFileBytes
          ? `it is ${formatCount(data.length)} bytes, above the ${formatCount(this.maxFileBytes)}-byte limit for one saved result`
          : `this session already saved ${formatCount(used)} of its ${formatCount(this.maxSessionBytes)} bytes of results`;
      return {
        persisted: false,
        text: this.stub(
          text,
          undefined,
          `The full result was NOT kept: ${detail}. Only this preview exists; run the tool again with narrower arguments if you need more.`,
        ),
        reason: 'budget',
        detail,
      };
    }
    const path = nodePath.join(this.options.dir, `${safeCallId(callId)}.txt`);
    try {
      await this.options.fileSystem.mkdirp(this.options.dir);
      await this.options.fileSystem.writeFile(path, data, { mode: 0o600 });
    } catch (error) {
      const detail = errnoOf(error) ?? String(error);
      return {
        persisted: false,
        text: this.stub(
          text,
          undefined,
          `Saving the full result failed (${detail}); it was truncated to this preview. Run the tool again with narrower arguments if you need more.`,
        ),
        reason: 'write-failed',
        detail,
      };
    }
    this.usedBySession.set(sessionId, used + data.length);
    return { persisted: true, text: this.stub(text, path), path, bytes: data.length };
  }

  /** Forgets a session's budget (its saved files stay until they expire). */
  forgetSession(sessionId: string): void {
    this.usedBySession.delete(sessionId);
  }

  /** The saved results, newest first. */
  async list(): Promise<{ path: string; name: string; bytes: number; mtimeMs: number }[]> {
    const fs = this.options.fileSystem;
    let names: string[];
    try {
      names = await fs.readdir(this.options.dir);
    } catch {
      return [];
    }
    const saved: { path: string; name: string; bytes: number; mtimeMs: number }[] = [];
    for (const name of names) {
      if (!name.endsWith('.txt')) continue;
      const path = nodePath.join(this.options.dir, name);
      try {
        const stat = await fs.lstat(path);
        if (stat?.kind === 'file') saved.push({ path, name, bytes: stat.size, mtimeMs: stat.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
    return saved.sort((a, b) => b.mtimeMs - a.mtimeMs);
  }

  /** Removes saved results older than the maximum age; returns how many were removed. */
  async cleanup(): Promise<number> {
    const now = (this.options.clock ?? { now: () => Date.now() }).now();
    let removed = 0;
    for (const saved of await this.list()) {
      if (now - saved.mtimeMs <= this.maxAgeMs) continue;
      try {
        await this.options.fileSystem.unlink(saved.path);
        removed++;
      } catch {
        // raced with another cleanup: fine
      }
    }
    return removed;
  }

  private stub(text: string, path: string | undefined, note?: string): string {
    const preview = text.slice(0, this.previewChars);
    const where = path
      ? `The full result (${formatCount(text.length)} characters) was saved to ${path}. Read it with readgate_read (offset/limit) if you need more than this preview.`
      : (note ?? '');
    const attributes = path ? ` path="${path}" chars="${text.length}"` : ` chars="${text.length}" kept="false"`;
    return `${STUB_TAG}${attributes}>\n${where}\nPreview (first ${formatCount(preview.length)} characters):\n${preview}\n</persisted-output>`;
  }
}
