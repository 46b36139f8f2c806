/**
 * The files a mutating call names, checked by the path policy and merged: one file named twice with edits gets
 * both lists in order; a file deleted or moved is named once, and no two changes end at one path.
 */
import { invalidInput } from '../refusals/invalidInput';
import { type Refusal, refuse } from '../refusals/refusal';
import type { PathPolicy } from '../path/pathPolicy';
import type { ChangeRequest, PlanInput } from '../mutate/filePlan';
import { invalidArgument } from '../refusals/invalidInput';

/** One file of a mutating call, before its paths are checked. */
export interface MutateInput {
  path: string;
  request: ChangeRequest;
  expectedVersion?: string;
  moveTo?: string;
}

/** `expectedVersion`: the call's (edit, write); a multiEdit's per-file versions win over it. */
export async function resolveTargets(paths: PathPolicy, inputs: MutateInput[], expectedVersion: string | undefined): Promise<PlanInput[] | Refusal> {
  const resolved: PlanInput[] = [];
  const claimed = new Map<string, string>();
  for (const input of inputs) {
    const checked = await paths.check(input.path);
    if (!checked.ok) return refuse(checked.code, checked.message);
    let moveTo: PlanInput['moveTo'];
    if (input.moveTo !== undefined) {
      const destination = await paths.check(input.moveTo);
      if (!destination.ok) return refuse(destination.code, destination.message);
      if (destination.target === checked.target) return invalidInput.moveToItself(checked.path);
      moveTo = { path: destination.path, target: destination.target };
    }
    const version = input.expectedVersion ?? expectedVersion;
    const merged = mergeInto(resolved, checked.target, input, version, moveTo);
    if (merged === true) continue;
    if (merged) return merged;
    for (const [target, path] of [[checked.target, checked.path], ...(moveTo ? [[moveTo.target, moveTo.path]] : [])] as [string, string][]) {
      if (claimed.has(target)) return invalidInput.namedTwice(path, claimed.get(target) as string);
      claimed.set(target, path);
    }
    const request: ChangeRequest = input.request.kind === 'edit' ? { kind: 'edit', edits: [...input.request.edits] } : input.request;
    resolved.push({ path: checked.path, target: checked.target, request, ...(version !== undefined ? { expectedVersion: version } : {}), ...(moveTo ? { moveTo } : {}) });
  }
  return resolved;
}

/** Adds the edits of a file named again to its first mention: true when merged, a refusal for two versions. */
function mergeInto(resolved: PlanInput[], target: string, input: MutateInput, version: string | undefined, moveTo: PlanInput['moveTo']): true | Refusal | undefined {
  const same = resolved.find((r) => r.target === target);
  if (!same || same.request.kind !== 'edit' || input.request.kind !== 'edit' || same.moveTo || moveTo) return undefined;
  if (version !== undefined && same.expectedVersion !== undefined && version !== same.expectedVersion) return invalidArgument.conflictingVersions(same.path, same.expectedVersion, version);
  if (version !== undefined) same.expectedVersion = version;
  // A loop: spreading a long list into push overflows the stack.
  for (const edit of input.request.edits) same.request.edits.push(edit);
  return true;
}
