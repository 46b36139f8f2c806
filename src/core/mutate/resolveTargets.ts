/**
 * The files a mutating call names, checked by the path policy and merged: one file named twice with edits gets
 * both lists in order; a file deleted or moved is named once, and no two changes end at one path.
 */
import { invalidArgument, invalidInput } from '../refusals/invalidInput';
import { type Refusal, refuse } from '../refusals/refusal';
import type { PathCheck, PathPolicy } from '../path/pathPolicy';
import type { ChangeRequest, PlanInput } from './filePlan';

/** One file of a mutating call, before its paths are checked. */
export interface MutateInput {
  path: string;
  request: ChangeRequest;
  expectedVersion?: string;
  moveTo?: string;
}

export type CheckedPath = Extract<PathCheck, { ok: true }>;

/** One file of a call with its paths checked. */
export interface CheckedInput {
  checked: CheckedPath;
  request: ChangeRequest;
  expectedVersion?: string;
  moveTo?: CheckedPath;
}

/** `expectedVersion`: the call's (edit, write); a multiEdit's per-file versions win over it. */
export async function resolveTargets(paths: PathPolicy, inputs: MutateInput[], expectedVersion: string | undefined): Promise<PlanInput[] | Refusal> {
  const checked: CheckedInput[] = [];
  for (const input of inputs) {
    const path = await paths.check(input.path);
    if (!path.ok) return refuse(path.code, path.message);
    let moveTo: CheckedPath | undefined;
    if (input.moveTo !== undefined) {
      const destination = await paths.check(input.moveTo);
      if (!destination.ok) return refuse(destination.code, destination.message);
      moveTo = destination;
    }
    const version = input.expectedVersion ?? expectedVersion;
    checked.push({ checked: path, request: input.request, ...(version !== undefined ? { expectedVersion: version } : {}), ...(moveTo ? { moveTo } : {}) });
  }
  return mergeTargets(checked);
}

const target = (path: CheckedPath): { path: string; target: string; identity?: string } => ({
  path: path.path,
  target: path.target,
  ...(path.identity ? { identity: path.identity } : {}),
});

/** The call's files as the guard plans them: edits of one file merged, and every file deleted or moved named once. */
export function mergeTargets(inputs: readonly CheckedInput[]): PlanInput[] | Refusal {
  const resolved: PlanInput[] = [];
  const claimed = new Map<string, string>();
  for (const input of inputs) {
    const { checked, moveTo } = input;
    if (moveTo && moveTo.target === checked.target) return invalidInput.moveToItself(checked.path);
    const merged = mergeInto(resolved, checked, input);
    if (merged === true) continue;
    if (merged) return merged;
    for (const named of [checked, ...(moveTo ? [moveTo] : [])]) {
      if (claimed.has(named.target)) return invalidInput.namedTwice(named.path, claimed.get(named.target) as string);
      claimed.set(named.target, named.path);
    }
    const request: ChangeRequest = input.request.kind === 'edit' ? { kind: 'edit', edits: [...input.request.edits] } : input.request;
    resolved.push({
      ...target(checked),
      request,
      ...(input.expectedVersion !== undefined ? { expectedVersion: input.expectedVersion } : {}),
      ...(moveTo ? { moveTo: target(moveTo) } : {}),
    });
  }
  return resolved;
}

/** Adds the edits of a file named again to its first mention: true when merged, a refusal for two versions. */
function mergeInto(resolved: PlanInput[], checked: CheckedPath, input: CheckedInput): true | Refusal | undefined {
  const same = resolved.find((r) => r.target === checked.target);
  if (!same || same.request.kind !== 'edit' || input.request.kind !== 'edit' || same.moveTo || input.moveTo) return undefined;
  const version = input.expectedVersion;
  if (version !== undefined && same.expectedVersion !== undefined && version !== same.expectedVersion) {
    return invalidArgument.conflictingVersions(checked.path, same.expectedVersion, version);
  }
  if (version !== undefined) same.expectedVersion = version;
  // A loop: spreading a long list into push overflows the stack.
  for (const edit of input.request.edits) same.request.edits.push(edit);
  return true;
}
