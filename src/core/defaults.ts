/**
 * The defaults of the settings the core applies, in one place: the guard falls back to them when a caller
 * leaves a value out, the extension's settings reader (`src/vscode/config.ts`) defaults to them, and a unit
 * test checks that package.json's `contributes.configuration` declares the same values. Two copies drifted
 * apart unnoticed before; adapter-only settings (approval, chat) keep their defaults in the adapter.
 */
const MiB = 1024 * 1024;

export const DEFAULTS = Object.freeze({
  /** Answer an unchanged re-read with a placeholder. */
  dedup: true,
  /** Lines one read returns at most. */
  maxLines: 2000,
  /** Bytes one read returns at most. */
  maxBytes: 100_000,
  /** Characters of one line a read shows before cutting it. */
  maxLineLength: 2000,
  /** Largest file an edit or write handles. */
  maxFileBytes: 10 * MiB,
  /** Memory for the snapshots diffs are computed against, shared by all sessions. */
  snapshotBudgetBytes: 64 * MiB,
  /** Tool results longer than this many characters are saved to a file behind a stub. */
  toolResultThreshold: 28_000,
});
