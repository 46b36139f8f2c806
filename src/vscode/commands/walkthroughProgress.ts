/**
 * When a step of the Get Started walkthrough is done: when its own action happened, not when one of its buttons
 * was clicked. VS Code ticks a step without completion events as soon as any command one of its buttons names
 * runs, whatever the arguments, so "Show the Sample Patch" (readgate.openSamplePatch) ticked "See a stale change
 * refused", whose buttons name the same commands. So each of these steps completes on a context key of its own
 * (`onContext:` in the manifest), which the step's action sets from its outcome. Pure: outcomes in, a key out.
 */

/** The context keys, as the manifest's `completionEvents` name them (`onContext:<key>`). */
export const WalkthroughKeys = {
  /** The fresh sample patch was applied (after review). */
  samplePatchApplied: 'readgate.walkthrough.samplePatchApplied',
  /** The stale sample patch was refused because its context no longer matches. */
  stalePatchRefused: 'readgate.walkthrough.stalePatchRefused',
  /** The sample agent's change was decided in review (approved, in part or whole, or rejected). */
  sampleChangeReviewed: 'readgate.walkthrough.sampleChangeReviewed',
} as const;

type Outcome = { ok: true } | { ok: false; code: string } | undefined;

/** The key a sample patch's outcome sets: the fresh one applied, or the stale one refused for its context. */
export function keyForSamplePatch(sample: 'fresh' | 'stale', outcome: Outcome): string | undefined {
  if (sample === 'fresh') return outcome?.ok ? WalkthroughKeys.samplePatchApplied : undefined;
  return outcome && !outcome.ok && outcome.code === 'NO_OCCURRENCE_FOUND' ? WalkthroughKeys.stalePatchRefused : undefined;
}

/** The key the sample agent's change sets once the user decided on it (a refusal for another reason is no review). */
export function keyForSampleChange(outcome: Outcome): string | undefined {
  return outcome && (outcome.ok || outcome.code === 'REJECTED_BY_USER') ? WalkthroughKeys.sampleChangeReviewed : undefined;
}
