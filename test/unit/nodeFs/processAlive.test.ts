/**
 * The one liveness check of a process id, as every sweep of files a process left behind uses it: this process and
 * any running one are alive (another user's too: EPERM), a process that ended is not, and neither is a pid that
 * names no single process.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import { processAlive } from '../../../src/core/nodeFs/processAlive';

/** The pid of a process that has ended (spawned and waited for, so it is reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  assert.ok(child.pid && child.status === 0, 'could not run a short child process');
  return child.pid;
}

suite('process liveness', () => {
  test('this process is alive', () => {
    assert.strictEqual(processAlive(process.pid), true);
  });

  test('pid 1 is alive, whether this process may signal it (root) or not (EPERM)', () => {
    assert.strictEqual(processAlive(1), true);
  });

  test('a process that ended is not', () => {
    assert.strictEqual(processAlive(deadPid()), false);
  });

  test('a pid that names no single process is not: 0 and negatives would signal a group', () => {
    for (const pid of [0, -1, -process.pid, 1.5, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 2]) assert.strictEqual(processAlive(pid), false, String(pid));
  });
});
