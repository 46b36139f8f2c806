import * as assert from 'assert';
import { attributeChange } from '../../../src/vscode/documents/changeAttribution';

suite('change attribution', () => {
  test('document changes during a save come from save participants, others from the editor', () => {
    assert.strictEqual(attributeChange({ kind: 'document', duringSave: true, reason: undefined }).kind, 'save');
    assert.deepStrictEqual(attributeChange({ kind: 'document', duringSave: false, reason: undefined }), { kind: 'editor' });
    assert.deepStrictEqual(attributeChange({ kind: 'document', duringSave: false, reason: 'undo' }), { kind: 'editor', detail: 'undo' });
  });

  test('file events are git while HEAD or the index just moved, another process otherwise', () => {
    assert.deepStrictEqual(attributeChange({ kind: 'file', event: 'changed', gitActive: true }), { kind: 'git' });
    assert.deepStrictEqual(attributeChange({ kind: 'file', event: 'deleted', gitActive: false }), { kind: 'external', detail: 'file deleted' });
  });

  test('workbench operations name the operation', () => {
    assert.deepStrictEqual(attributeChange({ kind: 'workbench', operation: 'renamed', detail: 'to b.ts' }), { kind: 'editor', detail: 'renamed to b.ts' });
  });
});
