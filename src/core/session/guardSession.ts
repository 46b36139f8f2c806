/**
 * One session's operations (API.md `GuardSession`). Each public method is a boundary: it returns a Refusal
 * for every failure and never throws; cancellation and disposal become CANCELLED; an unexpected exception is
 * logged and fails closed; an identical refused call repeated gets a sharper message so the agent stops
 * retrying. Writes to one file are serialized under the per-file lock from the first check to the write.
 */
import { type ErrorCode, type Refusal, isRefusal, messages, refuse } from '../refusal';
import { scanRange } from '../read/scanRange';
import { formatRanges } from '../ledger/coverage';
import type { Edit, GuardSession, LedgerEntryView, MutationOptions, MutationResult, ReadOptions, ReadResult, SessionStats } from '../types';
import { Cancelled, commitPlans } from './commitPlans';
import { type GuardContext, IN_MEMORY_MAX_BYTES } from './context';
import { versionOf } from './fileText';
import { validateEdits, validateMutationOptions } from './inputValidation';
import { entryFor } from './ledgerLookup';
import { refusalForFileError } from './fileErrorRefusal';
import { runLocked } from './fileLocks';
import { type FilePlan, type PlanInput, planFile } from './mutationPlan';
import { performRead } from './readOperation';
import { SessionState } from './sessionState';

/** Options as given, or {} for anything that is not an options object (callers send anything). */
function optionsOf<T extends object>(options: T | undefined): Partial<T> {
  return typeof options === 'object' && options !== null ? options : {};
}

function isCancellation(error: unknown): boolean {
  return error instanceof Cancelled || (error instanceof Error && error.name === 'AbortError');
}

function errnoOf(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e?.code ? `${e.code}${e.syscall ? ` on ${e.syscall}` : ''}` : String((error as Error)?.message ?? error);
}

export class GuardSessionImpl implements GuardSession {
  private readonly state: SessionState;

  constructor(
    private readonly ctx: GuardContext,
    readonly id: string,
    dedup: boolean | undefined,
    onLedgerChange: (path: string) => void = () => {},
    private readonly onForget: () => void = () => {},
  ) {
    this.state = new SessionState(id, dedup, ctx.maxEntriesPerSession, onLedgerChange);
  }

  read(path: string, given?: ReadOptions): Promise<ReadResult> {
    const options = optionsOf(given);
    return this.boundary('read', [path, options.offset, options.limit, options.force], path, options.signal, () => performRead(this.ctx, this.state, path, options));
  }

  edit(path: string, edits: Edit[], given?: MutationOptions): Promise<MutationResult> {
    const options = optionsOf(given);
    return this.boundary('edit', [path, edits, options.expectedVersion], path, options.signal, async () => {
      const invalid = validateEdits(edits) ?? validateMutationOptions(options);
      if (invalid) return invalid;
      return this.mutate([{ path, request: { kind: 'edit', edits } }], 'edit', options);
    });
  }

  write(path: string, content: string, given?: MutationOptions): Promise<MutationResult> {
    const options = optionsOf(given);
    return this.boundary('write', [path, content, options.expectedVersion], path, options.signal, async () => {
      if (typeof content !== 'string') return refuse('INVALID_INPUT', 'content must be a string (the complete new file content).');
      const invalid = validateMutationOptions(options);
      if (invalid) return invalid;
      return this.mutate([{ path, request: { kind: 'write', content } }], 'write', options);
    });
  }

  multiEdit(changes: { path: string; edits: Edit[] }[], given?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult> {
    const options = optionsOf(given);
    return this.boundary('multiEdit', [changes], '(multiEdit)', options.signal, async () => {
      if (!Array.isArray(changes) || changes.length === 0) return refuse('INVALID_INPUT', 'changes must be a non-empty list of { path, edits }.');
      for (let i = 0; i < changes.length; i++) {
        const change = changes[i];
        if (typeof change !== 'object' || change === null) return refuse('INVALID_INPUT', `changes[${i}] must be an object { path, edits }.`);
        const invalid = validateEdits(change.edits, `changes[${i}].edits`);
        if (invalid) return invalid;
      }
      const invalid = validateMutationOptions(options);
      if (invalid) return invalid;
      const result = await this.mutate(changes.map((change) => ({ path: change.path, request: { kind: 'edit', edits: change.edits } })), 'multiEdit', options);
      if (!result.ok && result.code !== 'CANCELLED') return refuse(result.code, `No file was changed (multiEdit applies all files or none). ${result.message}`);
      return result;
    });
  }

  async check(path: string): Promise<'unknown' | 'stale' | 'fresh'> {
    if (this.ctx.isDisposed()) return 'unknown';
    try {
      const checked = await this.ctx.paths.check(path);
      if (!checked.ok) return 'unknown';
      const stat = await this.ctx.fs.stat(checked.target);
      const { identityEntry, targetEntry } = entryFor(this.ctx, this.state, checked.target, stat?.identity);
      if (!stat) return targetEntry ? (targetEntry.version === undefined ? 'fresh' : 'stale') : 'unknown';
      if (!identityEntry) return targetEntry ? 'stale' : 'unknown';
      if (stat.kind !== 'file') return 'stale';
      const hasher = await this.ctx.hasher();
      let version: string;
      if (stat.size > IN_MEMORY_MAX_BYTES) {
        const reader = await this.ctx.fs.openChunkReader(checked.target);
        try {
          version = (await scanRange(reader, { startLine: 1, maxLines: 0, maxBytes: 0, hasher })).version;
        } finally {
          await reader.close();
        }
      } else {
        version = versionOf(hasher, await this.ctx.fs.readFile(checked.target), stat.revision);
      }
      return version === identityEntry.version ? 'fresh' : 'stale';
    } catch (error) {
      this.ctx.logger.warn('[guard] check failed; reporting stale', { session: this.id, error: errnoOf(error) });
      return 'stale';
    }
  }

  clear(): void {
    this.state.ledger.clear();
    this.state.lastRefusal = undefined;
    this.ctx.logger.info('[ledger] session cleared', { session: this.id });
    this.onForget();
  }

  stats(): SessionStats {
    const { stats } = this.state;
    return { ...stats, refusals: { ...stats.refusals } };
  }

  entries(): LedgerEntryView[] {
    return [...this.state.ledger.entries()].map((entry) => {
      // A session's own mutations are noted too; they are not a change it missed.
      const source = this.ctx.changes.since(entry.target, entry.recordedAt + 1) ?? this.ctx.changes.since(entry.path, entry.recordedAt + 1);
      const changedBy = source && !(source.kind === 'session' && source.detail === this.id) ? source : undefined;
      return {
        path: entry.path,
        version: entry.version,
        totalLines: entry.totalLines,
        seen: [...entry.seen],
        seenText: formatRanges(entry.seen),
        recordedAt: entry.recordedAt,
        ...(changedBy ? { changedBy } : {}),
      };
    });
  }

  private async mutate(inputs: { path: string; request: PlanInput['request'] }[], operation: 'edit' | 'write' | 'multiEdit', options: MutationOptions): Promise<MutationResult> {
    const resolved: PlanInput[] = [];
    for (const input of inputs) {
      const checked = await this.ctx.paths.check(input.path);
      if (!checked.ok) return refuse(checked.code, checked.message);
      const same = resolved.find((r) => r.target === checked.target);
      if (same && same.request.kind === 'edit' && input.request.kind === 'edit') same.request.edits.push(...input.request.edits);
      else resolved.push({ path: checked.path, target: checked.target, request: input.request.kind === 'edit' ? { kind: 'edit', edits: [...input.request.edits] } : input.request, ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}) });
    }
    return runLocked(
      this.ctx,
      resolved.map((r) => r.target),
      options.signal,
      async () => {
        if (options.signal?.aborted || this.ctx.isDisposed()) throw new Cancelled();
        const planAll = async (): Promise<FilePlan[] | Refusal> => {
          const plans: FilePlan[] = [];
          for (const input of resolved) {
            const plan = await planFile(this.ctx, this.state, input);
            if (isRefusal(plan)) return plan;
            plans.push(plan);
          }
          return plans;
        };
        const plans = await planAll();
        if (isRefusal(plans)) return plans;
        // A refresh during review re-plans under the same lock, so nothing else interleaves. Its refusals go to
        // the approver, not the agent, so what they would record as seen is put back.
        const replan = async (): Promise<FilePlan[] | Refusal> => {
          const restore = this.state.ledger.capture(resolved.map((input) => input.target));
          const next = await planAll();
          if (isRefusal(next)) restore();
          return next;
        };
        return commitPlans(this.ctx, this.state, plans, operation, options.explanation, options.signal, replan);
      },
    );
  }

  private async boundary<T extends { ok: boolean }>(operation: string, args: unknown[], path: unknown, signal: AbortSignal | undefined, work: () => Promise<T | Refusal>): Promise<T | Refusal> {
    if (this.ctx.isDisposed()) return refuse('CANCELLED', messages.disposed());
    if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function')) {
      return this.refused(operation, args, path, refuse('INVALID_INPUT', 'signal must be an AbortSignal.'));
    }
    if (signal?.aborted) return refuse('CANCELLED', messages.cancelled());
    let result: T | Refusal;
    try {
      result = await work();
    } catch (error) {
      const fileRefusal = refusalForFileError(error, String(path));
      if (isCancellation(error)) {
        result = refuse('CANCELLED', this.ctx.isDisposed() ? messages.disposed() : messages.cancelled());
      } else if (fileRefusal) {
        result = fileRefusal;
      } else {
        this.ctx.logger.error('[guard] unexpected failure', { session: this.id, operation, path: String(path), error: errnoOf(error) });
        result = refuse('PRIOR_READ_VERIFICATION_FAILED', messages.verificationFailed(String(path), errnoOf(error)));
      }
    }
    if (isRefusal(result)) return this.refused(operation, args, path, result);
    this.state.lastRefusal = undefined;
    if (operation === 'read') {
      this.state.stats.reads++;
      if ((result as unknown as ReadResult & { ok: true }).kind === 'content') this.state.stats.contentReads++;
    } else {
      this.state.stats.mutations++;
    }
    return result;
  }

  private refused(operation: string, args: unknown[], path: unknown, refusal: Refusal): Refusal {
    let key: string;
    try {
      key = `${operation}:${JSON.stringify(args)}`;
    } catch {
      key = `${operation}:${String(path)}`;
    }
    const repeated = this.state.lastRefusal?.key === key && this.state.lastRefusal.code === refusal.code && refusal.code !== 'CANCELLED';
    this.state.lastRefusal = { key, code: refusal.code as ErrorCode };
    this.state.stats.refusals[refusal.code] = (this.state.stats.refusals[refusal.code] ?? 0) + 1;
    this.ctx.logger.info(`[guard] ${operation} refused`, { session: this.id, path: String(path), code: refusal.code, repeated });
    return repeated ? refuse(refusal.code, messages.repeated(refusal.code, refusal.message)) : refusal;
  }
}
