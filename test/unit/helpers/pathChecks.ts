/** Assertions on path policy checks, shared by the path tests. */
import * as assert from 'assert';
import * as fs from 'fs';
import { identityOfStats } from '../../../src/core/nodeFs/fileKinds';
import type { PathCheck } from '../../../src/core/path/pathPolicy';

/** The check's path, target and existence; and, for an existing target, its identity as lstat gives it (the walk found it). */
export function assertAllowed(result: PathCheck, expected: { path: string; target: string; exists: boolean }): void {
  const { identity, ...rest } = result as PathCheck & { identity?: string };
  assert.deepStrictEqual(rest, { ok: true, ...expected });
  const found = expected.exists ? fs.lstatSync(expected.target, { throwIfNoEntry: false }) : undefined;
  if (found && !found.isSymbolicLink()) assert.strictEqual(identity, identityOfStats(found, expected.target), `identity of ${expected.target}`);
  else assert.strictEqual(identity, undefined);
}
