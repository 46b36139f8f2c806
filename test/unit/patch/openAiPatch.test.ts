/**
 * OpenAI's apply_patch format (Codex, Copilot's apply_patch tool): parsed with codex's grammar, placed with its
 * rules but exact matches only. Cases follow codex-rs/apply-patch's own tests and fixture scenarios.
 */
import * as assert from 'assert';
import { type FilePatch, parsePatch, planPatch, type PatchPlan } from '../../../src/core/index';
import { applyOperation } from './planResult';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function files(text: string): FilePatch[] {
  const parsed = parsePatch(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  assert.strictEqual(parsed.format, 'apply-patch');
  return parsed.files;
}

function plan(text: string, existing: Record<string, string>): PatchPlan {
  return planPatch(files(text), (path) => (path in existing ? { exists: true, text: existing[path] } : { exists: false }));
}

/** The text of `path` after the patch. */
function after(text: string, path: string, before: string): string {
  const result = plan(text, { [path]: before });
  assert.ok(result.ok, result.ok ? '' : `${result.code}: ${result.message}`);
  return result.operations.reduce((current, operation) => applyOperation(current, operation), before);
}

function refusal(text: string, existing: Record<string, string>): { code: string; message: string } {
  const result = plan(text, existing);
  assert.ok(!result.ok, `planned: ${JSON.stringify(result)}`);
  return result;
}

suite('apply_patch format: parsing', () => {
  test('add, delete, update and update-with-move sections, with prose and heredoc lines around the envelope ignored', () => {
    const text = ["Here it is:", "<<'EOF'", patch('*** Add File: hello.txt', '+Hello world', '+', '*** Update File: src/app.py', '*** Move to: src/main.py', '@@ def greet():', '-print("Hi")', '+print("Hello, world!")', '*** Delete File: obsolete.txt'), 'EOF'].join('\n');
    assert.deepStrictEqual(files(text), [
      { kind: 'create', path: 'hello.txt', content: 'Hello world\n\n' },
      { kind: 'rename', from: 'src/app.py', path: 'src/main.py', changes: { format: 'apply-patch', chunks: [{ contexts: ['def greet():'], oldLines: ['print("Hi")'], newLines: ['print("Hello, world!")'], endOfFile: false, patchLine: 9 }] } },
      { kind: 'delete', path: 'obsolete.txt' },
    ]);
  });

  test('several @@ lines narrow one chunk; an empty line is an empty context line; *** End of File ends a chunk', () => {
    const [file] = files(patch('*** Update File: f', '@@ class A', '@@     def m():', ' x', '', '-y', '+Y', '*** End of File'));
    assert.ok(file.kind === 'modify' && file.changes.format === 'apply-patch');
    assert.deepStrictEqual(file.changes.chunks, [{ contexts: ['class A', '    def m():'], oldLines: ['x', '', 'y'], newLines: ['x', '', 'Y'], endOfFile: true, patchLine: 3 }]);
  });

  test('whitespace around the markers is tolerated as codex does; a missing End Patch, an empty update and a stray line are refused', () => {
    assert.strictEqual(files([' *** Begin Patch', '  *** Update File: f', '@@', '-a', '+b', '*** End Patch '].join('\n'))[0].path, 'f');
    assert.match((parsePatch(['*** Begin Patch', '*** Update File: f', '-a'].join('\n')) as { message: string }).message, /no "\*\*\* End Patch" line/);
    assert.match((parsePatch(patch('*** Update File: f')) as { message: string }).message, /has no change in it/);
    assert.match((parsePatch(patch('*** Update File: f', '@@', 'oops')) as { message: string }).message, /"oops" .* is not a change line/);
    assert.match((parsePatch(patch('*** Frobnicate File: f')) as { message: string }).message, /not a file section header/);
  });
});

suite('apply_patch format: placement, exact only', () => {
  test('chunks go in order, each after the last; @@ context lines move the search past them', () => {
    const text = patch('*** Update File: f', '@@', ' a', '-b', '+B', '@@', ' c', ' d', '-e', '+E', '@@', ' f', '+g', '*** End of File');
    assert.strictEqual(after(text, 'f', 'a\nb\nc\nd\ne\nf\n'), 'a\nB\nc\nd\nE\nf\ng\n');
    const narrowed = patch('*** Update File: f', '@@ def two():', '-    return 1', '+    return 2');
    assert.strictEqual(after(narrowed, 'f', 'def one():\n    return 1\ndef two():\n    return 1\n'), 'def one():\n    return 1\ndef two():\n    return 2\n');
  });

  test('*** End of File anchors the chunk at the end of the file', () => {
    const text = patch('*** Update File: f', '@@', ' x', '+y', '*** End of File');
    assert.strictEqual(after(text, 'f', 'x\nmid\nx\n'), 'x\nmid\nx\ny\n');
    const stale = refusal(text, { f: 'x\nmid\n' });
    assert.strictEqual(stale.code, 'NO_OCCURRENCE_FOUND');
    assert.match(stale.message, /chunk 1 .*at the end of the file .*line 2: the patch expects "x", the file has "mid"/s);
  });

  test('a chunk of only added lines goes at the end of the file, before a last empty line (codex\'s rule)', () => {
    assert.strictEqual(after(patch('*** Update File: f', '@@', '+added'), 'f', 'a\nb\n'), 'a\nb\nadded\n');
    assert.strictEqual(after(patch('*** Update File: f', '@@', '+added'), 'f', 'a\n\n'), 'a\nadded\n\n');
  });

  test('old lines ending with an empty line are searched again without it, as codex does for the final line break', () => {
    assert.strictEqual(after(patch('*** Update File: f', '@@', ' a', '-b', ''), 'f', 'a\nb\n'), 'a\n');
  });

  test('lines equal but for whitespace are refused with the line that differs (codex would take them)', () => {
    const stale = refusal(patch('*** Update File: f', '@@', '-return 1', '+return 2'), { f: 'def f():\n    return 1\n' });
    assert.strictEqual(stale.code, 'NO_OCCURRENCE_FOUND');
    assert.match(stale.message, /line 2: the patch expects "return 1", the file has " {4}return 1"/);
    assert.match(stale.message, /if spaces at the start and end of lines are ignored \(codex would apply the chunk there\)/);
    const context = refusal(patch('*** Update File: f', '@@ def g():', '-x', '+y'), { f: 'def  g():\nx\n' });
    assert.match(context.message, /the "@@ def g\(\):" line of chunk 1 .* is not in the file/);
  });

  test('Add File over an existing file and Move to onto one are refused (codex overwrites); a missing file to update is refused', () => {
    assert.strictEqual(refusal(patch('*** Add File: f', '+x'), { f: 'old\n' }).code, 'FILE_EXISTS');
    assert.strictEqual(refusal(patch('*** Update File: a', '*** Move to: b', '@@', '-x', '+y'), { a: 'x\n', b: 'other\n' }).code, 'FILE_EXISTS');
    assert.strictEqual(refusal(patch('*** Update File: nope', '@@', '-x', '+y'), {}).code, 'FILE_NOT_FOUND');
  });

  test('Move to renames, then changes the file\'s content in its source\'s lines; Delete File expects the text the plan saw', () => {
    const result = plan(patch('*** Update File: old/name.txt', '*** Move to: renamed/dir/name.txt', '@@', '-from', '+to', '*** Delete File: gone.txt'), { 'old/name.txt': 'from\n', 'gone.txt': 'whatever\n' });
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.deepStrictEqual(result.operations, [
      { op: 'rename', from: 'old/name.txt', to: 'renamed/dir/name.txt' },
      { op: 'modify', path: 'renamed/dir/name.txt', edits: [{ line: 1, oldText: 'from\n', newText: 'to\n' }] },
      { op: 'delete', path: 'gone.txt', expected: 'whatever\n' },
    ]);
  });

  test('a last line without a line break stays without one when a chunk replaces it', () => {
    assert.strictEqual(after(patch('*** Update File: f', '@@', ' a', '-b', '+B'), 'f', 'a\nb'), 'a\nB');
  });
});
