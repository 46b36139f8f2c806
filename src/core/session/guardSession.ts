/**
 * One session's operations (`GuardSession` in `types.ts`). Each public method is a boundary: it returns a Refusal
 * for every failure and never throws. It first copies its arguments into plain data (`callArguments.ts`), so
 * nothing the caller passed runs again; cancellation and disposal become CANCELLED; an unexpected exception is
 * logged and fails closed; an identical refused call repeated gets a sharper message so the agent stops
 * retrying. Writes to one file are serialized under the per-file lock from the first check to the write.
 */
import { type ErrorCode, type Refusal, isRefusal, refuse, repeated as repeatedCall } from '../refusals/refusal';
import { formatRanges } from '../text/lineRanges';
import type {
  ApprovalRequest,
  Edit,
  ObservedRead,
  OwnChangeCall,
  OwnChangeJudgement,
  OwnReadCall,
  RecordedOwnChange,
  ShownOutput,
  ShownRange,
  GuardSession,
  LedgerEntryView,
  MultiEditChange,
  MutationOptions,
  MutationResult,
  ReadOptions,
  ReadResult,
  SessionOptions,
  SessionStats,
} from '../types';
import { Cancelled } from '../mutate/approval';
import { runMutation } from './runMutation';
import { CallOrder } from './callOrder';
import { parsePatch } from '../patch/parsePatch';
import type { MutateInput } from '../mutate/resolveTargets';
import { leftFilesChanged } from '../mutate/writeFiles';
import type { GuardContext } from '../context/guardContext';
import {
  type DeleteCall,
  type EditCall,
  type MultiEditCall,
  type PatchCall,
  type ReadCall,
  type RenameCall,
  type RevertCall,
  type WriteCall,
  deleteCall,
  editCall,
  multiEditCall,
  patchCall,
  readCall,
  renameCall,
  writeCall,
} from './callArguments';
import { runRevert } from './runRevert';
import { runPatch } from './runPatch';
import { describeValue } from '../refusals/invalidInput';
import { refusalForFileError } from '../refusals/fileErrorRefusal';
import { performRead } from '../read/readOperation';
import { freshness } from './freshness';
import { linkSignal } from './linkedSignal';
import { SessionState } from '../context/sessionState';
import { callCancelled } from '../refusals/cancelled';
import { fitText, utf8Size } from '../text/resultBudget';
import { verificationFailed } from '../refusals/verificationFailed';
import { describeIoError } from '../fileErrors';
import { OwnToolCalls } from '../ownTools/ownToolCalls';
import { callIdArguments, ownChangeArguments, ownReadArguments, reportedShown } from '../ownTools/ownCallArguments';

function isCancellation(error: unknown): boolean {
  try {
    return error instanceof Cancelled || (error instanceof Error && error.name === 'AbortError');
  } catch {
    return false;
  }
}

/** An unexpected failure in words for the log and the refusal; an error whose fields throw is described anyway. */
function describeError(error: unknown): string {
  try {
    return describeIoError(error);
  } catch {
    return 'an error that could not be described';
  }
}

/** A path argument for logs and messages about the call, whatever the caller passed. */
function shownPath(path: unknown): string {
  return typeof path === 'string' ? path : `(${describeValue(path)})`;
}

type Operation = 'read' | 'edit' | 'write' | 'multiEdit' | 'delete' | 'rename' | 'applyPatch' | 'revert' | 'ownRead' | 'ownChange';

export class GuardSessionImpl implements GuardSession {
  private readonly state: SessionState;
  private readonly order = new CallOrder();
  /** Calls of the agent's own tools between their two hooks (made on the first such call). */
  private own: OwnToolCalls | undefined;
  /** The session serves one call only (`SessionOptions.standalone`). */
  readonly standalone: boolean;
  readonly startedAt: number;

  constructor(
    private readonly ctx: GuardContext,
    readonly id: string,
    options: SessionOptions,
    onLedgerChange: (path: string) => void = () => {},
    private readonly onForget: () => void = () => {},
  ) {
    // A standalone session's calls share nothing, so nothing it returns may point at an earlier call.
    const standalone = options.standalone === true;
    this.standalone = standalone;
    this.startedAt = ctx.clock.now();
    // Nor is its ledger news to anyone: it ends with the call, so listeners would look up a session that is gone.
    this.state = new SessionState(
      id,
      standalone ? false : options.dedup,
      ctx.maxEntriesPerSession,
      standalone ? () => {} : onLedgerChange,
      standalone,
      options.resultBudget,
    );
    this.setOrigin(options);
  }

  /** `SessionOptions.surface` and `label`, when given as non-empty strings (at creation, or again later). */
  setOrigin(options: Pick<SessionOptions, 'surface' | 'label'>): void {
    const { surface, label } = options;
    if (typeof surface === 'string' && surface !== '') this.state.origin.surface = surface;
    if (typeof label === 'string' && label !== '') this.state.origin.label = label;
  }

  /**
   * `Guard.revert`, run as this session's one call (the guard makes a session for each revert). `call` is
   * already copied; the boundary links its signal and turns every outcome into a result.
   */
  revert(call: RevertCall): Promise<MutationResult> {
    return this.boundary(
      'revert',
      call.path,
      () => call,
      (copy: RevertCall, signal) => runRevert(this.ctx, this.state, copy, signal),
    );
  }

  read(path: string, options?: ReadOptions): Promise<ReadResult> {
    return this.boundary(
      'read',
      path,
      () => readCall(path, options),
      (call: ReadCall, signal) =>
        performRead(this.ctx, this.state, call.path, { ...call.options, signal }).then((read) => {
          this.state.learn(read.updates);
          return read.result;
        }),
    );
  }

  edit(path: string, edits: Edit[], options?: MutationOptions): Promise<MutationResult> {
    return this.boundary(
      'edit',
      path,
      () => editCall(path, edits, options),
      (call: EditCall, signal) => this.mutate([{ path: call.path, request: { kind: 'edit', edits: call.edits } }], 'edit', { ...call.options, signal }),
    );
  }

  write(path: string, content: string, options?: MutationOptions): Promise<MutationResult> {
    return this.boundary(
      'write',
      path,
      () => writeCall(path, content, options),
      (call: WriteCall, signal) => this.mutate([{ path: call.path, request: { kind: 'write', content: call.content } }], 'write', { ...call.options, signal }),
    );
  }

  multiEdit(changes: MultiEditChange[], options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult> {
    return this.boundary(
      'multiEdit',
      '(multiEdit)',
      () => multiEditCall(changes, options),
      async (call: MultiEditCall, signal) => {
        const inputs: MutateInput[] = call.changes.map((change) => ({
          path: change.path,
          request: change.delete ? { kind: 'delete' as const } : { kind: 'edit' as const, edits: change.edits ?? [] },
          expectedVersion: change.expectedVersion,
          ...(change.moveTo !== undefined ? { moveTo: change.moveTo } : {}),
        }));
        const result = await this.mutate(inputs, 'multiEdit', { ...call.options, signal });
        if (!result.ok && result.code !== 'CANCELLED') {
          const head = leftFilesChanged(result)
            ? 'The change was not applied as a whole, and the files named below could not be restored.'
            : 'No file was changed (multiEdit applies all files or none).';
          return refuse(result.code, `${head} ${result.message}`);
        }
        return result;
      },
    );
  }

  delete(path: string, options?: MutationOptions): Promise<MutationResult> {
    return this.boundary(
      'delete',
      path,
      () => deleteCall(path, options),
      (call: DeleteCall, signal) => this.mutate([{ path: call.path, request: { kind: 'delete' } }], 'delete', { ...call.options, signal }),
    );
  }

  rename(from: string, to: string, options?: MutationOptions): Promise<MutationResult> {
    return this.boundary(
      'rename',
      from,
      () => renameCall(from, to, options),
      (call: RenameCall, signal) =>
        this.mutate([{ path: call.path, request: { kind: 'edit', edits: [] }, moveTo: call.to }], 'rename', { ...call.options, signal }),
    );
  }

  applyPatch(patch: string, options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult> {
    return this.boundary(
      'applyPatch',
      '(patch)',
      () => patchCall(patch, options),
      async (call: PatchCall, signal) => {
        const parsed = parsePatch(call.patch);
        if (!parsed.ok) return parsed;
        // Its place among the session's calls on the same files is taken now, before anything asynchronous.
        const paths = parsed.files.flatMap((file) => ('from' in file ? [file.path, file.from] : [file.path]));
        const keys = paths.map((path) => this.ctx.paths.lexical(path)).filter((key): key is string => key !== undefined);
        return this.order.run(keys, signal, () => runPatch(this.ctx, this.state, parsed.files, { ...call.options, signal }));
      },
    );
  }

  beforeOwnRead(call: OwnReadCall): Promise<{ ok: true } | Refusal> {
    return this.boundary(
      'ownRead',
      call?.path,
      () => ownReadArguments(call),
      async (copy) => {
        const { result, updates } = await this.ownCalls().beforeRead({ callId: copy.callId, path: copy.path, cut: copy.cut });
        this.state.learn(updates);
        return result;
      },
    );
  }

  afterOwnRead(callId: string, shown?: ShownRange | ShownOutput): Promise<ObservedRead | Refusal> {
    const reported = reportedShown(shown);
    return this.boundary(
      'ownRead',
      '(own tool call)',
      () => callIdArguments(callId),
      async (copy) => {
        const { result, updates } = await this.ownCalls().afterRead(copy.callId, reported);
        this.state.learn(updates);
        if (updates.length) this.state.stats.reads++;
        return result;
      },
    );
  }

  judgeOwnChange(call: OwnChangeCall): Promise<OwnChangeJudgement> {
    return this.boundary(
      'ownChange',
      '(own tool change)',
      () => ownChangeArguments(call),
      (copy, signal) => {
        const paths = 'files' in copy.call.change ? copy.call.change.files.map((file) => file.path) : [];
        const keys = paths.map((path) => this.ctx.paths.lexical(path)).filter((key): key is string => key !== undefined);
        return this.order.run(keys, signal, async () => {
          const { result, updates } = await this.ownCalls().judge({ ...copy.call, ...(signal ? { signal } : {}) });
          this.state.learn(updates);
          return result;
        });
      },
    );
  }

  afterOwnChange(callId: string, options?: { settleMs?: number }): Promise<RecordedOwnChange | Refusal> {
    const settleMs = typeof options?.settleMs === 'number' && options.settleMs > 0 ? Math.min(options.settleMs, 60_000) : 0;
    return this.boundary(
      'ownChange',
      '(own tool change)',
      () => callIdArguments(callId),
      async (copy) => {
        const { result, updates } = await this.ownCalls().afterChange(copy.callId, settleMs);
        this.state.learn(updates);
        if (result.files.some((file) => file.outcome !== 'unchanged')) this.state.stats.mutations++;
        return result;
      },
    );
  }

  private ownCalls(): OwnToolCalls {
    return (this.own ??= new OwnToolCalls(this.ctx, this.state));
  }

  check(path: string): Promise<'unknown' | 'stale' | 'fresh'> {
    return freshness(this.ctx, this.state, path).catch((error: unknown) => {
      this.ctx.logger.warn('[guard] check failed; reporting stale', { session: this.id, error: describeError(error) });
      return 'stale' as const;
    });
  }

  /** `SessionOptions.resultBudget` given again for a live session (a setting changed). */
  setBudget(budget: SessionOptions['resultBudget']): void {
    this.state.setBudget(budget);
  }

  clear(): void {
    this.state.forget();
    this.own?.forget();
    this.state.lastRefusal = undefined;
    this.ctx.logger.info('[ledger] session cleared', { session: this.id });
    this.onForget();
  }

  maxResultChars(): number | undefined {
    return this.state.maxChars;
  }

  stats(): SessionStats {
    const { stats } = this.state;
    return { ...stats, refusals: { ...stats.refusals } };
  }

  entries(): LedgerEntryView[] {
    return [...this.state.ledger.entries()].map((entry) => {
      // A session's own mutations are noted too; they are not a change it missed.
      const source = this.ctx.changes.since(entry.target, entry.recordedAt + 1, null);
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

  /**
   * `inputs[].expectedVersion` (a multiEdit's, per file) wins over `options.expectedVersion` (edit, write). Runs
   * after the session's earlier calls on the same files (`CallOrder`): called before anything asynchronous.
   */
  private mutate(inputs: MutateInput[], operation: ApprovalRequest['operation'], options: MutationOptions): Promise<MutationResult> {
    const keys = inputs.flatMap((input) => [input.path, input.moveTo]).map((path) => this.ctx.paths.lexical(path));
    return this.order.run(
      keys.filter((key): key is string => key !== undefined),
      options.signal,
      () => runMutation(this.ctx, this.state, inputs, operation, options),
    );
  }

  /**
   * Copies the arguments into plain data first (nothing the caller passed is touched after that), links the
   * caller's signal, runs the work, and turns every outcome into a result value.
   */
  private async boundary<C extends { path: string; key: unknown[]; signal: unknown }, T extends { ok: boolean }>(
    operation: Operation,
    givenPath: unknown,
    copy: () => C | Refusal,
    work: (call: C, signal: AbortSignal | undefined) => Promise<T | Refusal>,
  ): Promise<T | Refusal> {
    if (this.ctx.isDisposed()) return callCancelled.disposed();
    const call = copy();
    if (isRefusal(call)) {
      const shown = shownPath(givenPath);
      return this.refused(operation, () => `${operation}:${shown}:${call.message}`, shown, call);
    }
    const key = (): string => `${operation}:${JSON.stringify(call.key)}`;
    const linked = linkSignal(call.signal);
    if (isRefusal(linked)) return this.refused(operation, key, call.path, linked);
    if (linked.aborted) return callCancelled.cancelled();
    let result: T | Refusal;
    try {
      result = await work(call, linked.signal);
    } catch (error) {
      const fileRefusal = refusalForFileError(error, call.path);
      if (isCancellation(error)) {
        result = this.ctx.isDisposed() ? callCancelled.disposed() : callCancelled.cancelled();
      } else if (fileRefusal) {
        result = fileRefusal;
      } else {
        this.ctx.logger.error('[guard] unexpected failure', { session: this.id, operation, path: call.path, error: describeError(error) });
        result = verificationFailed.unchecked(call.path, describeError(error));
      }
    } finally {
      linked.unlink();
    }
    if (isRefusal(result)) return this.withinBudget(this.refused(operation, key, call.path, result));
    this.state.lastRefusal = undefined;
    if (operation === 'read') {
      this.state.stats.reads++;
      if ((result as unknown as ReadResult & { ok: true }).kind === 'content') this.state.stats.contentReads++;
    } else if (operation !== 'ownRead' && operation !== 'ownChange') {
      // Own-tool calls count where they happen: a read once it is learned, a change once it was written.
      this.state.stats.mutations++;
    }
    return this.withinBudget(result);
  }

  /**
   * The last resort of the session's budget: reads and diffs are sized to fit when they are built (what they
   * show is what counts as seen), so this only ever shortens words, such as the closest lines of a refusal.
   * A refusal's code and ": " come before its message on every surface, so they count too.
   */
  private withinBudget<T extends { ok: boolean }>(result: T): T {
    const max = this.state.maxChars;
    if (max === undefined) return result;
    if (isRefusal(result)) {
      const room = max - result.code.length - 2;
      return utf8Size(result.message) <= room ? result : ({ ...result, message: fitText(result.message, room) } as unknown as T);
    }
    const text = (result as unknown as { text?: unknown }).text;
    if (typeof text !== 'string' || utf8Size(text) <= max) return result;
    this.ctx.logger.warn('[guard] a result was cut to the session budget after it was built', { session: this.id, chars: text.length, budget: max });
    return { ...result, text: fitText(text, max) };
  }

  /** `key` says which calls count as the same call; it is built only here, and a failure to build it is no error. */
  private refused(operation: Operation, key: () => string, path: string, refusal: Refusal): Refusal {
    let callKey: string;
    try {
      callKey = key();
    } catch {
      callKey = `${operation}:${path}`;
    }
    const repeated = this.state.lastRefusal?.key === callKey && this.state.lastRefusal.code === refusal.code && refusal.code !== 'CANCELLED';
    this.state.lastRefusal = { key: callKey, code: refusal.code as ErrorCode };
    this.state.stats.refusals[refusal.code] = (this.state.stats.refusals[refusal.code] ?? 0) + 1;
    this.ctx.logger.info(`[guard] ${operation} refused`, { session: this.id, path, code: refusal.code, repeated });
    return repeated ? refuse(refusal.code, repeatedCall(refusal.code, refusal.message)) : refusal;
  }
}
