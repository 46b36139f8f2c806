import * as assert from 'assert';
import { keyForSampleChange, keyForSamplePatch, WalkthroughKeys } from '../../../src/vscode/commands/walkthroughProgress';

suite('the walkthrough\'s steps are done by what happened (walkthroughProgress)', () => {
  test('the fresh sample patch ticks its step only once applied; the stale one only when refused for its context', () => {
    assert.strictEqual(keyForSamplePatch('fresh', { ok: true }), WalkthroughKeys.samplePatchApplied);
    assert.strictEqual(keyForSamplePatch('fresh', { ok: false, code: 'REJECTED_BY_USER' }), undefined, 'rejected in review: not applied');
    assert.strictEqual(keyForSamplePatch('fresh', undefined), undefined, 'cancelled');
    assert.strictEqual(keyForSamplePatch('stale', { ok: false, code: 'NO_OCCURRENCE_FOUND' }), WalkthroughKeys.stalePatchRefused);
    assert.strictEqual(keyForSamplePatch('stale', { ok: false, code: 'PATH_DENIED' }), undefined, 'refused for another reason than the one the step shows');
    assert.strictEqual(keyForSamplePatch('stale', { ok: true }), undefined);
  });

  test('the sample agent\'s change ticks the review step once decided, approved or rejected, and not when refused', () => {
    assert.strictEqual(keyForSampleChange({ ok: true }), WalkthroughKeys.sampleChangeReviewed);
    assert.strictEqual(keyForSampleChange({ ok: false, code: 'REJECTED_BY_USER' }), WalkthroughKeys.sampleChangeReviewed);
    assert.strictEqual(keyForSampleChange({ ok: false, code: 'FILE_CHANGED_SINCE_READ' }), undefined);
    assert.strictEqual(keyForSampleChange(undefined), undefined);
  });
});
