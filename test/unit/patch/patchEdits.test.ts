/**
 * `patchEdit`: one file of a parsed patch as the single guard edit the Apply Patch command writes. These tests
 * pin the reproduced defects through the function the command used when they were found; the placement rules
 * themselves are tested on `planPatch` (planPatch.test.ts).
 */
import * as assert from 'assert';
import { type FilePatch, parsePatch, patchEdit } from '../../../src/core/index';

function parsed(text: string): FilePatch[] {
  const result = parsePatch(text);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.files;
}

/** The file's text after the patch's edit for it, or the refusal. */
function patched(patch: string, current: string | undefined): string | { code: string; message: string } {
  const files = parsed(patch);
  assert.strictEqual(files.length, 1);
  const edit = patchEdit(files[0], current);
  if ('ok' in edit) return { code: edit.code, message: edit.message };
  if (current === undefined || edit.wholeFile) return edit.newString;
  assert.strictEqual(current.split(edit.oldString).length, 2, `the edit's old text is not unique in the file: ${JSON.stringify(edit.oldString)}`);
  return current.replace(edit.oldString, () => edit.newString);
}

function refusal(outcome: string | { code: string; message: string }): { code: string; message: string } {
  assert.ok(typeof outcome !== 'string', `the patch was applied: ${JSON.stringify(outcome)}`);
  return outcome;
}

const blocks = (file: string, ...parts: [string[], string[]][]) => [file, ...parts.flatMap(([search, replace]) => ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'])].join('\n') + '\n';
const unified = (file: string, ...hunk: string[]) => [`--- a/${file}`, `+++ b/${file}`, ...hunk, ''].join('\n');

suite('patchEdit: search/replace blocks keep every line of SEARCH and REPLACE', () => {
  test('a blank last line of SEARCH is part of what is replaced', () => {
    // Found: the block's lines were joined with '\n', so the trailing '\n' of the blank line read as the end of
    // "b" and the blank line stayed in the file.
    assert.strictEqual(patched(blocks('f.txt', [['a', 'b', ''], ['a', 'B']]), 'a\nb\n\nc\n'), 'a\nB\nc\n');
  });

  test('a SEARCH of one blank line appends to the file, as aider does with any whitespace-only SEARCH', () => {
    // Found: read as "create the file" and refused with FILE_EXISTS.
    assert.strictEqual(patched(blocks('f.txt', [[''], ['tail']]), 'a\n'), 'a\ntail\n');
  });

  test('a file created by an empty SEARCH ends with a line break', () => {
    // Found: `hello\nworld` was written without its final line break.
    assert.strictEqual(patched(blocks('new.txt', [[], ['hello', 'world']]), undefined), 'hello\nworld\n');
  });
});

suite('patchEdit: hunks are anchored where git anchors them', () => {
  test('a hunk without trailing context must end the file: appending again to a later version is refused', () => {
    // Found: the patch that appended d, e after c was applied to a version that already had them, and d, e went
    // in a second time in the middle of the file. git refuses it: the hunk must end the file.
    const outcome = refusal(patched(unified('f.txt', '@@ -2,2 +2,4 @@', ' b', ' c', '+d', '+e'), 'a\nb\nc\nd\ne\nx\n'));
    assert.strictEqual(outcome.code, 'NO_OCCURRENCE_FOUND');
    assert.match(outcome.message, /f\.txt/);
    assert.match(outcome.message, /hunk 1/i);
    assert.match(outcome.message, /end of the file/);
  });

  test('a hunk without leading context at line 1 must start the file', () => {
    const outcome = refusal(patched(unified('f.txt', '@@ -1,2 +1,3 @@', '+header', ' a', ' b'), 'z\na\nb\nc\n'));
    assert.strictEqual(outcome.code, 'NO_OCCURRENCE_FOUND');
    assert.match(outcome.message, /hunk 1/i);
    assert.match(outcome.message, /start of the file/);
  });
});

suite('patchEdit: hunks without any context line are not placed by line numbers alone', () => {
  test('a -U0 insertion is refused when nothing proves the file is the version the patch was made from', () => {
    // Found: inserted after line 2 of whatever the file held by then.
    const outcome = refusal(patched(unified('f.txt', '@@ -2,0 +3 @@', '+new'), 'x\na\nb\nc\n'));
    assert.strictEqual(outcome.code, 'INVALID_INPUT');
    assert.match(outcome.message, /no context lines/);
    assert.match(outcome.message, /-U3/);
    assert.match(outcome.message, /unidiffZero/);
  });
});

suite('patchEdit: a hunk\'s named line moves with the offset of the hunk before it', () => {
  test('among duplicates, the one where the earlier hunk\'s offset points wins', () => {
    // Found: hunk 1 matched 3 lines below its named line (3 lines were added at the top since), but hunk 2 was
    // placed at its named line, where a copy of its lines happens to sit, instead of 3 lines below it.
    const base = Array.from({ length: 40 }, (_, i) => `l${i + 1}`);
    base[9] = 'X';
    base[29] = 'Y';
    base[30] = 'X2';
    const drifted = ['d1', 'd2', 'd3', ...base];
    drifted.splice(29, 3, 'Y', 'X2', 'l32');
    const patch = unified('f.txt', '@@ -9,3 +9,3 @@', ' l9', '-X', '+XX', ' l11', '@@ -30,3 +30,3 @@', ' Y', '-X2', '+X2new', ' l32');
    const expected = [...drifted];
    expected[12] = 'XX';
    expected[33] = 'X2new';
    assert.strictEqual(patched(patch, drifted.join('\n') + '\n'), expected.join('\n') + '\n');
  });
});

suite('patchEdit: refusals name the file, the hunk and a line that really differs', () => {
  test('a hunk whose lines exist only inside the lines an earlier hunk changes says so', () => {
    // Found: "Closest place, from line 3: ." — the search for the closest place ignored where the previous hunk
    // ended, picked a place that was fully equal, and had no differing line to show.
    const outcome = refusal(patched(unified('a.txt', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c', '@@ -3,2 +3,2 @@', ' c', '-d', '+D'), 'a\nb\nc\nd\n'));
    assert.match(outcome.message, /a\.txt/);
    assert.match(outcome.message, /hunk 2/i);
    assert.doesNotMatch(outcome.message, /: \./);
    assert.match(outcome.message, /hunk 1/i);
  });
});
