/**
 * Whether a process id names a running process, the one answer for every file a process leaves behind (a temp
 * file, a history lock, a window's discovery file). Another user's process counts (EPERM): it may still be writing.
 */
import { errnoOf } from '../fileErrors';

/** This process is alive; a pid that is no positive integer is not (0 and negatives would signal a group). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // Only ESRCH says there is no such process; anything else (EPERM above all) leaves it alive.
    return errnoOf(error) !== 'ESRCH';
  }
}
