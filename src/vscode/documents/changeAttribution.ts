/**
 * Who changed a file, decided from what VS Code reports around the change. Pure: the facts of one event in,
 * a source out. Our own edits are recognized by the adapter before they get here and never reach it.
 *
 * - A document change during a save (between will-save and did-save) comes from save participants: format on
 *   save, code actions, trimming, other extensions' save hooks.
 * - A document change outside a save: undo/redo, or someone (or an extension) typing in the editor.
 * - A file-system event while git's HEAD or index moved recently: a git operation (checkout, merge, stash).
 * - Any other file-system event: another process (terminal, formatter, another editor).
 */
import type { ChangeSource } from '../../core/index';

export type ChangeFact =
  | { kind: 'document'; duringSave: boolean; reason: 'undo' | 'redo' | undefined }
  | { kind: 'file'; event: 'created' | 'changed' | 'deleted'; gitActive: boolean }
  | { kind: 'workbench'; operation: 'renamed' | 'deleted' | 'created'; detail?: string };

export function attributeChange(fact: ChangeFact): ChangeSource {
  switch (fact.kind) {
    case 'document':
      if (fact.duringSave) return { kind: 'save', detail: 'format on save or another save participant' };
      return fact.reason ? { kind: 'editor', detail: fact.reason } : { kind: 'editor' };
    case 'file':
      if (fact.gitActive) return { kind: 'git' };
      return { kind: 'external', detail: fact.event === 'changed' ? undefined : `file ${fact.event}` };
    case 'workbench':
      return { kind: 'editor', detail: fact.detail ? `${fact.operation} ${fact.detail}` : fact.operation };
  }
}
