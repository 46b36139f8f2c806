/**
 * The history's budget and its garbage collection as pure decisions.
 *
 * Budget rule: records older than the age limit go first; then, while the stored bytes (every record file plus
 * every version a remaining record names, as stored: compressed) exceed the byte limit, the oldest remaining
 * record goes. Versions are shared between records, so dropping a record frees only the versions no other record
 * names (`freed`, removed with it).
 *
 * Orphans (versions no record names: their record is still being stored by another process, or its process
 * died, or their removal failed) are removed only once they are older than a grace period: a version written a
 * moment ago is most likely waiting for its record. Both decisions are made under the folder's lock on a fresh
 * view of the records; while a record file cannot be read (it may name any version), no version is removed.
 */

export interface BudgetRecord {
  id: string;
  time: number;
  /** Bytes of the record's own file. */
  bytes: number;
  versions: readonly string[];
}

export interface BudgetLimits {
  maxBytes: number;
  maxAgeMs: number;
}

export interface BudgetDecision {
  /** Record ids to drop, oldest first. */
  drop: string[];
  /** Versions only the dropped records named. */
  freed: string[];
}

/** `records` must be sorted oldest first; `versionBytes` holds the stored size of each version they name. */
export function decideBudget(records: readonly BudgetRecord[], versionBytes: ReadonlyMap<string, number>, now: number, limits: BudgetLimits): BudgetDecision {
  const refs = new Map<string, number>();
  for (const record of records) for (const id of record.versions) refs.set(id, (refs.get(id) ?? 0) + 1);
  let total = 0;
  for (const record of records) total += record.bytes;
  for (const id of refs.keys()) total += versionBytes.get(id) ?? 0;

  const drop: string[] = [];
  const freed: string[] = [];
  const release = (record: BudgetRecord): void => {
    drop.push(record.id);
    total -= record.bytes;
    for (const id of record.versions) {
      const left = (refs.get(id) ?? 0) - 1;
      refs.set(id, left);
      if (left > 0) continue;
      total -= versionBytes.get(id) ?? 0;
      freed.push(id);
    }
  };
  const oldestAllowed = now - limits.maxAgeMs;
  for (const record of records) {
    const aged = record.time < oldestAllowed;
    if (!aged && total <= limits.maxBytes) break;
    release(record);
  }
  return { drop, freed };
}

export interface StoredVersion {
  id: string;
  /** When it was written; unknown: never removed. */
  mtimeMs?: number;
}

/** Stored versions no record names that are older than `graceMs` at `now`. */
export function decideOrphans(stored: readonly StoredVersion[], named: ReadonlySet<string>, now: number, graceMs: number): string[] {
  return stored.filter((version) => !named.has(version.id) && version.mtimeMs !== undefined && now - version.mtimeMs > graceMs).map((version) => version.id);
}
