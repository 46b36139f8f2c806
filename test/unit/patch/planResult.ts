/** A plan's operation carried out on a file's '\n' text, for tests that compare a plan's result with another tool's. */
import * as assert from 'assert';
import type { PatchOperation, PlacedEdit } from '../../../src/core/index';

/** Splits '\n' text into lines that keep their '\n'. */
export function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Applies placed edits (in file order, non-overlapping, lines of the text before them) and checks their old text. */
export function applyEdits(text: string, edits: readonly PlacedEdit[]): string {
  const lines = linesOf(text);
  let result = '';
  let next = 0;
  for (const edit of edits) {
    const at = edit.line - 1;
    assert.ok(at >= next, `edits out of order or overlapping at line ${edit.line}`);
    const old = linesOf(edit.oldText);
    assert.strictEqual(lines.slice(at, at + old.length).join(''), edit.oldText, `the old text of the edit at line ${edit.line} is not the file's`);
    result += lines.slice(next, at).join('') + edit.newText;
    next = at + old.length;
  }
  return result + lines.slice(next).join('');
}

/** The text after one operation on the file it names (`modify` only; a `create` gives its content). */
export function applyOperation(text: string, operation: PatchOperation): string {
  if (operation.op === 'modify') return applyEdits(text, operation.edits);
  if (operation.op === 'create') return operation.content;
  throw new Error(`unexpected operation ${operation.op}`);
}
