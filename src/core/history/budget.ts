/**
 * The history's budget as a pure decision: which records to drop so that what is stored is at most `maxBytes`
 * and no record is older than `maxAgeMs`, and which versions no remaining record names (to remove with them).
 *
 * Rule: records older than the age limit go first; then, while the stored bytes (every record file plus every
 * version a remaining record names, as stored: compressed) exceed the byte limit, the oldest remaining record
 * goes. Versions are shared between records, so dropping a record frees only the versions no other record
 * names. A version no record names is never worth keeping and is always in `orphans`.
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
  /** Versions no remaining record names. */
  orphans: string[];
}

/** `records` must be sorted oldest first; `versionBytes` holds every stored version's size. */
export function decideBudget(records: readonly BudgetRecord[], versionBytes: ReadonlyMap<string, number>, now: number, limits: BudgetLimits): BudgetDecision {
  const refs = new Map<string, number>();
  for (const record of records) for (const id of record.versions) refs.set(id, (refs.get(id) ?? 0) + 1);
  let total = 0;
  for (const record of records) total += record.bytes;
  for (const [id, size] of versionBytes) if (refs.has(id)) total += size;

  const drop: string[] = [];
  const release = (record: BudgetRecord): void => {
    drop.push(record.id);
    total -= record.bytes;
    for (const id of record.versions) {
      const left = (refs.get(id) ?? 0) - 1;
      refs.set(id, left);
      if (left === 0) total -= versionBytes.get(id) ?? 0;
    }
  };
  const oldestAllowed = now - limits.maxAgeMs;
  for (const record of records) {
    const aged = record.time < oldestAllowed;
    if (!aged && total <= limits.maxBytes) break;
    release(record);
  }
  const orphans = [...versionBytes.keys()].filter((id) => !(refs.get(id) ?? 0));
  return { drop, orphans };
}
