/**
 * The snapshot store keeps texts of seen versions within a byte budget, least recently used out first
 * (SPEC section 3: memory is bounded). Eviction may only make the guard stricter, never permissive: the
 * guard-level consequence is tested in guard/staleness.test.ts.
 */
import * as assert from 'assert';
import { SnapshotStore } from '../../../src/core/ledger/snapshotStore';

/** What the store charges for a text: 2 bytes per UTF-16 unit plus 64 (see snapshotStore.ts). */
const cost = (text: string): number => text.length * 2 + 64;

suite('snapshot store', () => {
  test('stores snapshots and charges each against the budget', () => {
    const store = new SnapshotStore(10_000);
    store.put('v1', 'one\n');
    store.put('v2', 'two two\n');
    assert.strictEqual(store.get('v1'), 'one\n');
    assert.strictEqual(store.get('v2'), 'two two\n');
    assert.strictEqual(store.usedBytes, cost('one\n') + cost('two two\n'));
    // Putting the same version again replaces it rather than charging twice.
    store.put('v1', 'one\n');
    assert.strictEqual(store.usedBytes, cost('one\n') + cost('two two\n'));
  });

  test('evicts the least recently used snapshot when the budget is exceeded; a get counts as a use', () => {
    const text = (c: string): string => c.repeat(200);
    const store = new SnapshotStore(cost(text('a')) * 2 + 10);
    store.put('a', text('a'));
    store.put('b', text('b'));
    assert.strictEqual(store.get('a'), text('a'));
    store.put('c', text('c'));
    // b was used least recently (a was read after it), so b goes.
    assert.strictEqual(store.get('b'), undefined);
    assert.strictEqual(store.get('a'), text('a'));
    assert.strictEqual(store.get('c'), text('c'));
    assert.ok(store.usedBytes <= cost(text('a')) * 2 + 10);
  });

  test('never stores a text bigger than the whole budget, and shrinking the budget evicts at once', () => {
    const store = new SnapshotStore(1000);
    store.put('huge', 'x'.repeat(1000));
    assert.strictEqual(store.get('huge'), undefined);
    assert.strictEqual(store.usedBytes, 0);
    store.put('a', 'a'.repeat(100));
    store.put('b', 'b'.repeat(100));
    store.resize(cost('b'.repeat(100)));
    assert.strictEqual(store.get('a'), undefined);
    assert.strictEqual(store.get('b'), 'b'.repeat(100));
    store.clear();
    assert.strictEqual(store.usedBytes, 0);
  });
});
