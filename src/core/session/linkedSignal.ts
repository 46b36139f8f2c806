/**
 * A caller's AbortSignal mirrored onto one of our own for the length of one call. Everything downstream (the
 * scan of a huge file, approval, the write) sees only our signal, never the caller's object: a broken or
 * hostile object cannot throw from inside the guard, and a Proxy cannot answer "not aborted" to one check and
 * "aborted" to the next. Its `aborted`, `addEventListener` and `removeEventListener` are read once each; the
 * listener is removed when the call ends (`unlink`), so a long-lived signal does not collect them.
 */
import { invalidArgument } from '../refusals/invalidInput';
import type { Refusal } from '../refusals/refusal';

export interface LinkedSignal {
  /** Ours, aborted when the caller's is; undefined when the caller passed none. */
  signal: AbortSignal | undefined;
  /** The caller's signal was already aborted: the call returns CANCELLED without starting. */
  aborted: boolean;
  unlink(): void;
}

export function linkSignal(given: unknown): LinkedSignal | Refusal {
  if (given === undefined) return { signal: undefined, aborted: false, unlink: () => {} };
  if (typeof given !== 'object' || given === null) return invalidArgument.signal(false);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  let remove: unknown;
  try {
    const add = (given as AbortSignal).addEventListener as unknown;
    remove = (given as AbortSignal).removeEventListener as unknown;
    if (typeof add !== 'function') return invalidArgument.signal(false);
    if ((given as AbortSignal).aborted === true) return { signal: controller.signal, aborted: true, unlink: () => {} };
    Reflect.apply(add, given, ['abort', onAbort, { once: true }]);
  } catch {
    return invalidArgument.signal(true);
  }
  const unlink = (): void => {
    try {
      if (typeof remove === 'function') Reflect.apply(remove, given, ['abort', onAbort]);
    } catch {
      // The caller's object refused to let go of the listener; it only aborts a signal nobody uses any more.
    }
  };
  return { signal: controller.signal, aborted: false, unlink };
}
