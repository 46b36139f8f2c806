/** Sums of session statistics (the report's totals, the tool calls without a chat session). */
import type { ErrorCode, SessionStats } from '../../core/index';

export function emptyStats(): SessionStats {
  return { reads: 0, contentReads: 0, placeholderHits: 0, deltaReads: 0, estimatedTokensSaved: 0, mutations: 0, refusals: {} };
}

/** Adds `stats` into `total`. */
export function addStats(total: SessionStats, stats: SessionStats): void {
  total.reads += stats.reads;
  total.contentReads += stats.contentReads;
  total.placeholderHits += stats.placeholderHits;
  total.deltaReads += stats.deltaReads ?? 0;
  total.estimatedTokensSaved += stats.estimatedTokensSaved;
  total.mutations += stats.mutations;
  for (const [code, count] of Object.entries(stats.refusals) as [ErrorCode, number][]) total.refusals[code] = (total.refusals[code] ?? 0) + count;
}
