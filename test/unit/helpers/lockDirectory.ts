/** Makes a directory refuse new entries, for write-failure tests, even when the tests run as root. */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

function canCreateIn(dir: string): boolean {
  const probe = path.join(dir, '.readgate-probe');
  try {
    fs.writeFileSync(probe, '');
    fs.unlinkSync(probe);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns the undo, or undefined when this machine cannot lock it (root ignores chmod; then the immutable
 * attribute, which binds root too, is tried on file systems that support it).
 */
export function lockDirectory(dir: string): (() => void) | undefined {
  fs.chmodSync(dir, 0o555);
  if (!canCreateIn(dir)) return () => fs.chmodSync(dir, 0o755);
  fs.chmodSync(dir, 0o755);
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const unlock = (): void => void execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  if (!canCreateIn(dir)) return unlock;
  unlock();
  return undefined;
}
