/**
 * An agent's patch (`GuardSession.applyPatch`): every path it names checked once, all their locks taken, each
 * file stat'ed and loaded once for the whole call (placing the patch and planning the change use the same
 * content), then one change of every file, approved and written all or none.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { type PatchTarget, patchPaths, planAgentPatch } from '../mutate/agentPatch';
import { CallFiles } from '../mutate/callFiles';
import type { FilePatch } from '../patch/patchTypes';
import { isRefusal, refuse } from '../refusals/refusal';
import type { MutationOptions, MutationResult } from '../types';
import { leftFilesChanged } from '../mutate/writeFiles';
import { runLocked } from '../mutate/fileLocks';
import { type CheckedInput, type CheckedPath, mergeTargets } from '../mutate/resolveTargets';
import { planAndCommit } from './planAndCommit';
import { agentChange } from './runMutation';

export async function runPatch(ctx: GuardContext, s: SessionState, patch: readonly FilePatch[], options: MutationOptions): Promise<MutationResult> {
  const targets = new Map<string, CheckedPath>();
  for (const path of patchPaths(patch).keys()) {
    const checked = await ctx.paths.check(path);
    if (!checked.ok) return refuse(checked.code, checked.message);
    targets.set(path, checked);
  }
  return runLocked(ctx, [...targets.values()], options.signal, async (stats) => {
    const files = new CallFiles(ctx, stats);
    const learned: LedgerEntry[] = [];
    const planned = await planAgentPatch(ctx, s, patch, targets as ReadonlyMap<string, PatchTarget>, files, learned);
    s.learn(learned);
    if (!planned.ok) return planned;
    const inputs =
      'write' in planned
        ? [{ checked: targetOf(targets, planned.write.path), request: { kind: 'write' as const, content: planned.write.content } }]
        : planned.changes.map((change): CheckedInput => ({
            checked: targetOf(targets, change.path),
            request: change.delete ? { kind: 'delete' } : { kind: 'edit', edits: change.edits ?? [] },
            ...(change.moveTo !== undefined ? { moveTo: targetOf(targets, change.moveTo) } : {}),
          }));
    const merged = mergeTargets(inputs);
    if (isRefusal(merged)) return merged;
    const result = await planAndCommit(ctx, s, agentChange(ctx, s, merged, 'write' in planned ? 'write' : 'multiEdit', options, 'applyPatch'), files);
    return inputs.length > 1 ? asWhole(result) : result;
  });
}

function targetOf(targets: ReadonlyMap<string, CheckedPath>, path: string): CheckedPath {
  const found = targets.get(path);
  if (!found) throw new Error(`the patch placed a change of ${path}, a path it does not name`);
  return found;
}

/** A refused patch of several files says whether any file was changed (a patch applies all files or none). */
function asWhole(result: MutationResult): MutationResult {
  if (result.ok || result.code === 'CANCELLED') return result;
  const head = leftFilesChanged(result)
    ? 'The patch was not applied as a whole, and the files named below could not be restored.'
    : 'No file was changed (a patch applies all files or none).';
  return refuse(result.code, `${head} ${result.message}`);
}
