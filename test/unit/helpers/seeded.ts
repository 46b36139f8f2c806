/**
 * Seeded randomness for racing tests: the seed comes from READGATE_SEED when set, else a fresh one, and every
 * failure message carries it so a failing run can be replayed exactly (as far as the scheduler allows).
 */
import { randomInt } from 'crypto';

export interface Seeded {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  /** "seed 123 (rerun with READGATE_SEED=123)", for failure messages. */
  note: string;
}

export function seeded(): Seeded {
  const given = process.env.READGATE_SEED;
  let seed: number;
  if (given !== undefined && given !== '') {
    seed = Number(given);
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`READGATE_SEED must be an integer in [0, 2^32), not ${JSON.stringify(given)}`);
  } else {
    seed = randomInt(0, 0xffffffff);
  }
  // mulberry32
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    note: `seed ${seed} (rerun with READGATE_SEED=${seed})`,
  };
}
