/**
 * A real, tiny tmpfs for out-of-space tests (ENOSPC and short writes from the kernel, not from a fake port).
 * Needs root. The mount point is its own directory, not one of `makeTempDir`'s: that helper's teardown removes
 * its directories recursively and would hit a still-mounted file system. Every mount made here is unmounted
 * in a teardown even when the test failed (and lazily if something still holds it).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { needsRoot } from './needsRoot';

export interface TinyTmpfs {
  /** The mount point (already realpath'd). */
  dir: string;
  /** Unmounts and removes the mount point; safe to call twice. */
  unmount(): void;
}

const mounted = new Set<TinyTmpfs>();

function isMountPoint(dir: string): boolean {
  return fs.readFileSync('/proc/self/mounts', 'utf8').split('\n').some((line) => line.split(' ')[1] === dir);
}

/** Mounts a tmpfs of `size` (mount's syntax, e.g. "512k") on a fresh directory. */
export function mountTinyTmpfs(size: string, what: string): TinyTmpfs {
  needsRoot(what);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-tmpfs-')));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    fs.rmdirSync(dir);
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    throw new Error(`could not mount a ${size} tmpfs on ${dir} to check ${what} (CI runs as root with mount allowed): ${stderr || String(error)}`);
  }
  if (!isMountPoint(dir)) throw new Error(`mount reported success but ${dir} is not a mount point`);
  const handle: TinyTmpfs = {
    dir,
    unmount() {
      if (!mounted.delete(handle)) return;
      try {
        execFileSync('umount', [dir], { stdio: 'ignore' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      }
      fs.rmdirSync(dir);
    },
  };
  mounted.add(handle);
  return handle;
}

teardown(() => {
  for (const handle of [...mounted]) handle.unmount();
});
