/**
 * Real-fault tests that need root (mount, chown, a child running as another user) fail loudly without it,
 * never skip: CI runs as root, so a skip there would hide exactly the regression the test exists for.
 */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Throws "needs root: ..." unless this process is root; `what` names what the test checks. */
export function needsRoot(what: string): void {
  if (!isRoot()) throw new Error(`needs root: CI runs as root; run as root to check ${what}`);
}
