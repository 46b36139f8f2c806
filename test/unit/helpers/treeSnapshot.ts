/**
 * What a directory tree holds (names, kinds, bytes, modes, owners), to assert that a failed call left no
 * trace: no temp file, no created file or folder, every byte and mode as it was. Plus the one assertion every
 * failed write shares.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { MutationResult } from '../../../src/core/index';
import { refused } from './results';

export interface EntrySnapshot {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  mode: string;
  uid: number;
  gid: number;
  /** sha256 of a file's bytes, a symlink's target. */
  content?: string;
  size?: number;
  /** A file's bytes in base64, when asked for (`snapshotTree(dir, { bytes: true })`). */
  bytes?: string;
}

export type TreeSnapshot = Record<string, EntrySnapshot>;

/** Every entry under `dir` (not following symlinks), keyed by its path relative to `dir`. */
export function snapshotTree(dir: string, options: { bytes?: boolean } = {}): TreeSnapshot {
  const out: TreeSnapshot = {};
  const walk = (at: string): void => {
    for (const name of fs.readdirSync(at).sort()) {
      const full = path.join(at, name);
      const stat = fs.lstatSync(full);
      const base = { mode: (stat.mode & 0o7777).toString(8), uid: stat.uid, gid: stat.gid };
      const key = path.relative(dir, full);
      if (stat.isFile()) {
        const data = fs.readFileSync(full);
        out[key] = { kind: 'file', ...base, size: stat.size, content: createHash('sha256').update(data).digest('hex'), ...(options.bytes ? { bytes: data.toString('base64') } : {}) };
      }
      else if (stat.isSymbolicLink()) out[key] = { kind: 'symlink', ...base, content: fs.readlinkSync(full) };
      else if (stat.isDirectory()) {
        out[key] = { kind: 'directory', ...base };
        walk(full);
      } else out[key] = { kind: 'other', ...base };
    }
  };
  walk(dir);
  return out;
}

/** Asserts `dir` holds exactly what `before` recorded; `what` says which call should have left it so. */
export function assertTreeUnchanged(dir: string, before: TreeSnapshot, what: string): void {
  const after = snapshotTree(dir);
  const added = Object.keys(after).filter((key) => !(key in before));
  const removed = Object.keys(before).filter((key) => !(key in after));
  const changed = Object.keys(before).filter((key) => key in after && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  const detail = [
    added.length ? `left behind: ${added.join(', ')}` : '',
    removed.length ? `removed: ${removed.join(', ')}` : '',
    ...changed.map((key) => `changed: ${key} ${JSON.stringify(before[key])} -> ${JSON.stringify(after[key])}`),
  ].filter(Boolean);
  assert.ok(detail.length === 0, `${what} changed ${dir}:\n${detail.join('\n')}`);
}

/** A failed or short write: WRITE_FAILED, says nothing was changed, and mentions each of `mentions`. */
export function writeFailed(result: MutationResult, ...mentions: string[]): string {
  return refused(result, 'WRITE_FAILED', 'Nothing was changed', ...mentions);
}

/**
 * The whole contract of a failed write at once: WRITE_FAILED saying nothing was changed (and `mentions`), and
 * `dir` exactly as `before` (bytes, modes, owners; no temp file, created file or folder left). Both halves are
 * checked and reported together, so a call that wrongly succeeded also shows what it did to the disk.
 */
export function assertFailedCleanly(result: MutationResult, dir: string, before: TreeSnapshot, what: string, ...mentions: string[]): void {
  const problems: string[] = [];
  try {
    writeFailed(result, ...mentions);
  } catch (error) {
    problems.push((error as Error).message);
  }
  try {
    assertTreeUnchanged(dir, before, what);
  } catch (error) {
    problems.push((error as Error).message);
  }
  assert.ok(problems.length === 0, `${what}:\n${problems.join('\n')}`);
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
