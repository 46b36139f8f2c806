import * as assert from 'assert';
import { parsePatch, type FilePatch } from '../../../src/core/index';

function files(text: string): FilePatch[] {
  const parsed = parsePatch(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.files;
}

function refusal(text: string): string {
  const parsed = parsePatch(text);
  assert.ok(!parsed.ok, 'expected a refusal');
  assert.strictEqual(parsed.code, 'INVALID_INPUT');
  return parsed.message;
}

const GIT_DIFF = [
  'Here is the change:',
  'diff --git a/src/app.ts b/src/app.ts',
  'index 3f9a..8e1b 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,4 +1,4 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '',
  ' export { a, b };',
  '@@ -10,2 +10,3 @@ function tail() {',
  ' x();',
  '+y();',
  ' }',
  'diff --git a/docs/new.md b/docs/new.md',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/docs/new.md',
  '@@ -0,0 +1,2 @@',
  '+# New',
  '+text',
  '\\ No newline at end of file',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  '',
].join('\n');

suite('patch parser: unified diffs', () => {
  test('several files: modified, new and deleted, with git prefixes stripped and prose around ignored', () => {
    const parsed = files(GIT_DIFF);
    assert.deepStrictEqual(parsed.map((file) => [file.kind, file.path]), [['modify', 'src/app.ts'], ['create', 'docs/new.md'], ['delete', 'old.txt']]);
    const app = parsed[0] as Extract<FilePatch, { kind: 'modify' }>;
    assert.strictEqual(app.hunks.length, 2);
    assert.strictEqual(app.hunks[0].oldStart, 1);
    // The blank line inside the first hunk lost its leading space in copying: it is an empty context line.
    assert.deepStrictEqual(app.hunks[0].lines.map((line) => line.kind[0] + line.text), ['cconst a = 1;', 'rconst b = 2;', 'aconst b = 3;', 'c', 'cexport { a, b };']);
    assert.strictEqual(app.hunks[1].oldStart, 10);
    const created = parsed[1] as Extract<FilePatch, { kind: 'create' }>;
    assert.strictEqual(created.hunks[0].newEndsWithoutNewline, true);
    assert.strictEqual(created.hunks[0].oldEndsWithoutNewline, false);
  });

  test('"\\ No newline at end of file" belongs to the old side, the new side, or both', () => {
    const [file] = files(['--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', ' keep', '-old', '\\ No newline at end of file', '+new', '\\ No newline at end of file'].join('\n')) as Extract<FilePatch, { kind: 'modify' }>[];
    assert.strictEqual(file.hunks[0].oldEndsWithoutNewline, true);
    assert.strictEqual(file.hunks[0].newEndsWithoutNewline, true);
    const [onlyOld] = files(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-old', '\\ No newline at end of file', '+new'].join('\n')) as Extract<FilePatch, { kind: 'modify' }>[];
    assert.deepStrictEqual([onlyOld.hunks[0].oldEndsWithoutNewline, onlyOld.hunks[0].newEndsWithoutNewline], [true, false]);
  });

  test('a patch copied with CRLF line breaks parses as the same patch; plain `diff -u` headers with timestamps work', () => {
    const lf = ['--- src/a.c\t2024-01-01 10:00:00', '+++ src/a.c\t2024-01-02 10:00:00', '@@ -2,3 +2,3 @@', ' a', '-b', '+B', ' c', ''].join('\n');
    assert.deepStrictEqual(files(lf.replace(/\n/g, '\r\n')), files(lf));
    assert.strictEqual(files(lf)[0].path, 'src/a.c');
  });

  test('counts that do not add up, a cut-off patch, renames and stray hunks are refused with the line', () => {
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ -1,3 +1,3 @@', ' a', '-b', '+B'].join('\n')), /promises 3 old and 3 new lines but the patch ends/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ -1,1 +1,1 @@', ' a', ' b'].join('\n')), /more lines than its header promises|not a hunk line/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', ' a', 'oops', ' b'].join('\n')), /Line 5: "oops" is not a hunk line/);
    assert.match(refusal(['--- a/x', '+++ b/y', '@@ -1 +1 @@', '-a', '+b'].join('\n')), /renames x to y/);
    assert.match(refusal(['@@ -1 +1 @@', '-a', '+b'].join('\n')), /Line 1: a hunk .* comes before any/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ garbage @@'].join('\n')), /not a hunk header/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '--- a/x', '+++ b/x', '@@ -3 +3 @@', '-c', '+d'].join('\n')), /names x twice/);
    assert.match(refusal('just some prose\nwith no change in it'), /neither a unified diff .* nor search\/replace blocks/);
  });
});

suite('patch parser: search/replace blocks', () => {
  test('paths before blocks (bare, in backticks, bold, with a colon), fences ignored, blocks of one file grouped in order', () => {
    const text = [
      'src/a.ts',
      '```ts',
      '<<<<<<< SEARCH',
      'const a = 1;',
      '=======',
      'const a = 2;',
      '>>>>>>> REPLACE',
      '```',
      '',
      '**`lib/b.py`**:',
      '```python',
      '<<<<<<< SEARCH',
      'def f():',
      '    return 1',
      '=======',
      'def f():',
      '    return 2',
      '>>>>>>> REPLACE',
      '<<<<<<< SEARCH',
      'x = 1',
      '=======',
      '>>>>>>> REPLACE',
      '```',
      'new.txt',
      '<<<<<<< SEARCH',
      '=======',
      'fresh',
      '>>>>>>> REPLACE',
    ].join('\n');
    const parsed = parsePatch(text);
    assert.ok(parsed.ok && parsed.format === 'search-replace');
    assert.deepStrictEqual(
      parsed.files.map((file) => (file.kind === 'replace' ? [file.path, file.blocks] : [])),
      [
        ['src/a.ts', [{ search: 'const a = 1;', replace: 'const a = 2;' }]],
        ['lib/b.py', [{ search: 'def f():\n    return 1', replace: 'def f():\n    return 2' }, { search: 'x = 1', replace: '' }]],
        ['new.txt', [{ search: '', replace: 'fresh' }]],
      ],
    );
  });

  test('a block without a path, a divider or an end is refused with the line', () => {
    assert.match(refusal(['<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE'].join('\n')), /Line 1: the block has no file path/);
    assert.match(refusal(['x.txt', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE'].join('\n')), /has no "=======" line/);
    assert.match(refusal(['x.txt', '<<<<<<< SEARCH', 'a', '=======', 'b'].join('\n')), /has no ">>>>>>> REPLACE" line/);
  });
});
