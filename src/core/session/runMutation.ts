/**
 * A mutating call after its arguments were copied: its files resolved by the path policy, their locks taken, and
 * each file planned (`planChange`) against the call's files, carried out by `planAndCommit`.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { Operation } from '../mutate/approval';
import { CallFiles } from '../mutate/callFiles';
import type { PlanInput } from '../mutate/filePlan';
import { planFiles } from '../mutate/planChange';
import { isRefusal } from '../refusals/refusal';
import type { MutationOptions, MutationResult } from '../types';
import { runLocked } from '../mutate/fileLocks';
import { type ChangeCall, planAndCommit } from './planAndCommit';
import { type MutateInput, resolveTargets } from '../mutate/resolveTargets';

export async function runMutation(
  ctx: GuardContext,
  s: SessionState,
  inputs: MutateInput[],
  operation: Operation,
  options: MutationOptions,
): Promise<MutationResult> {
  const resolved = await resolveTargets(ctx.paths, inputs, options.expectedVersion);
  if (isRefusal(resolved)) return resolved;
  return runLocked(ctx, lockTargets(resolved), options.signal, (stats) =>
    planAndCommit(ctx, s, agentChange(ctx, s, resolved, operation, options), new CallFiles(ctx, stats)),
  );
}

/** Every file a change touches, a move's destination included. */
export function lockTargets(inputs: readonly PlanInput[]): { target: string; identity?: string }[] {
  return inputs.flatMap((input) => (input.moveTo ? [input, input.moveTo] : [input]));
}

/** A change of files an agent named, each planned by `planChange`. `tool`: the call, as the history names it. */
export function agentChange(
  ctx: GuardContext,
  s: SessionState,
  inputs: PlanInput[],
  operation: Operation,
  options: MutationOptions,
  tool: string = operation,
): ChangeCall {
  return { plan: (files) => planFiles(ctx, s, inputs, files), operation, tool, explanation: options.explanation, signal: options.signal };
}
