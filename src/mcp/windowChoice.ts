/**
 * Which VS Code window an agent working in a folder reaches, and why each other window is not the one: the
 * window with the deepest workspace folder holding the agent's folder (a window on `repo/packages/app` beats
 * one on `repo` for an agent in `repo/packages/app/src`); between equal folders the most recently started
 * window (the one the user opened last). The reasons are for `mcp-bridge.js --list`, so a user who asks "why
 * did my agent not find that window" gets an answer instead of a guess. Pure.
 */
import * as path from 'path';
import type { WindowEntry } from './discovery';

export type WindowVerdict =
  /** This window serves the folder: `folder` is its workspace folder holding it. */
  | { kind: 'picked'; folder: string }
  /** None of the window's folders holds the agent's folder. */
  | { kind: 'outside' }
  /** One of its folders holds the agent's folder, but the picked window's folder is deeper. */
  | { kind: 'shallower'; folder: string; picked: WindowEntry }
  /** Its folder is as deep as the picked window's, and the picked one started later. */
  | { kind: 'older'; folder: string; picked: WindowEntry };

export interface WindowDecision {
  entry: WindowEntry;
  verdict: WindowVerdict;
}

function contains(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The window's deepest folder holding `cwd`, with its depth (the length of its resolved path). */
function bestFolder(entry: WindowEntry, cwd: string): { folder: string; depth: number } | undefined {
  let best: { folder: string; depth: number } | undefined;
  for (const folder of entry.folders) {
    if (!contains(folder, cwd)) continue;
    const depth = path.resolve(folder).length;
    if (!best || depth > best.depth) best = { folder, depth };
  }
  return best;
}

/** A verdict for every window, in the order given; at most one is `picked`. */
export function decideWindows(windows: readonly WindowEntry[], cwd: string): WindowDecision[] {
  const candidates = windows.map((entry) => ({ entry, best: bestFolder(entry, cwd) }));
  let winner: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    if (!candidate.best) continue;
    if (
      !winner?.best ||
      candidate.best.depth > winner.best.depth ||
      (candidate.best.depth === winner.best.depth && candidate.entry.started > winner.entry.started)
    ) {
      winner = candidate;
    }
  }
  return candidates.map(({ entry, best }): WindowDecision => {
    if (!best) return { entry, verdict: { kind: 'outside' } };
    if (entry === winner!.entry) return { entry, verdict: { kind: 'picked', folder: best.folder } };
    const picked = winner!.entry;
    return {
      entry,
      verdict: best.depth < winner!.best!.depth ? { kind: 'shallower', folder: best.folder, picked } : { kind: 'older', folder: best.folder, picked },
    };
  });
}

/** The window for an agent working in `cwd`, or undefined when no window's workspace holds it. */
export function pickWindow(windows: readonly WindowEntry[], cwd: string): WindowEntry | undefined {
  return decideWindows(windows, cwd).find((decision) => decision.verdict.kind === 'picked')?.entry;
}
