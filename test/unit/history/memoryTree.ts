/**
 * A tree of files in memory for revert tests: the plan's `current` view of it, and an all-or-nothing apply of a
 * plan's operations that checks each operation's `current` against what the file holds (as the guard will).
 */
import * as assert from 'assert';
import type { CurrentFiles, RevertContent, RevertOp } from '../../../src/core/index';

export type Tree = Map<string, RevertContent>;

export const tree = (files: Record<string, RevertContent>): Tree => new Map(Object.entries(files));

export const viewOf = (files: Tree): CurrentFiles => (path) => files.get(path) ?? null;

const same = (a: RevertContent | null | undefined, b: RevertContent | null | undefined): boolean => {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
};

/** The tree after `ops`; throws (changing nothing) when an operation's `current` does not hold. */
export function applyOps(files: Tree, ops: readonly RevertOp[]): Tree {
  const next = new Map(files);
  for (const op of ops) {
    if (op.type === 'move') {
      assert.ok(same(files.get(op.from), op.current), `move: ${op.from} does not hold what the plan saw`);
      assert.ok(!files.has(op.to) || ops.some((other) => other.type === 'delete' && other.path === op.to), `move: ${op.to} is taken`);
    } else {
      assert.ok(same(files.get(op.path), op.current), `${op.type}: ${op.path} does not hold what the plan saw`);
    }
  }
  for (const op of ops) {
    if (op.type === 'delete') next.delete(op.path);
  }
  for (const op of ops) {
    if (op.type === 'move') {
      next.delete(op.from);
      next.set(op.to, op.content);
    } else if (op.type === 'write') {
      next.set(op.path, op.content);
    }
  }
  return next;
}
