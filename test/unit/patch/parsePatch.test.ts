import * as assert from 'assert';
import { parsePatch, type FilePatch, type PatchHunk } from '../../../src/core/index';

function files(text: string): FilePatch[] {
  const parsed = parsePatch(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.files;
}

/** The hunks of a parsed file that changes a file with a unified diff. */
function hunksOf(file: FilePatch): PatchHunk[] {
  assert.ok(file.kind === 'modify' && file.changes.format === 'unified', `not a unified change: ${JSON.stringify(file)}`);
  return file.changes.hunks;
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
    const hunks = hunksOf(parsed[0]);
    assert.strictEqual(hunks.length, 2);
    assert.deepStrictEqual([hunks[0].oldStart, hunks[0].oldCount, hunks[0].newStart, hunks[0].newCount], [1, 4, 1, 4]);
    // The blank line inside the first hunk lost its leading space in copying: it is an empty context line.
    assert.deepStrictEqual(hunks[0].lines.map((line) => line.kind[0] + line.text), ['cconst a = 1;', 'rconst b = 2;', 'aconst b = 3;', 'c', 'cexport { a, b };']);
    assert.strictEqual(hunks[1].oldStart, 10);
    assert.deepStrictEqual(parsed[0].kind === 'modify' && parsed[0].changes.format === 'unified' ? parsed[0].changes.index : undefined, { old: '3f9a', new: '8e1b' });
    // A new file's content is its added lines; "\ No newline at end of file" leaves off the last line break.
    assert.deepStrictEqual(parsed[1], { kind: 'create', path: 'docs/new.md', content: '# New\ntext' });
    // A deletion expects exactly the removed lines.
    assert.deepStrictEqual(parsed[2], { kind: 'delete', path: 'old.txt', expected: 'gone\n' });
  });

  test('"\\ No newline at end of file" belongs to the old side, the new side, or both', () => {
    const [file] = files(['--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', ' keep', '-old', '\\ No newline at end of file', '+new', '\\ No newline at end of file'].join('\n'));
    assert.strictEqual(hunksOf(file)[0].oldEndsWithoutNewline, true);
    assert.strictEqual(hunksOf(file)[0].newEndsWithoutNewline, true);
    const [onlyOld] = files(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-old', '\\ No newline at end of file', '+new'].join('\n'));
    assert.deepStrictEqual([hunksOf(onlyOld)[0].oldEndsWithoutNewline, hunksOf(onlyOld)[0].newEndsWithoutNewline], [true, false]);
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
    assert.match(refusal(['--- a/x', '+++ b/y', '@@ -1 +1 @@', '-a', '+b'].join('\n')), /names two different files, x and y/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ -1 +1 @@', ' a'].join('\n')), /changes nothing/);
    assert.match(refusal(['@@ -1 +1 @@', '-a', '+b'].join('\n')), /Line 1: a hunk .* comes before any/);
    assert.match(refusal(['--- a/x', '+++ b/x', '@@ garbage @@'].join('\n')), /not a hunk header/);
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
      parsed.files.map((file) => (file.kind === 'modify' && file.changes.format === 'search-replace' ? [file.path, file.changes.blocks.map(({ search, replace }) => ({ search, replace }))] : [])),
      [
        ['src/a.ts', [{ search: 'const a = 1;\n', replace: 'const a = 2;\n' }]],
        ['lib/b.py', [{ search: 'def f():\n    return 1\n', replace: 'def f():\n    return 2\n' }, { search: 'x = 1\n', replace: '' }]],
        ['new.txt', [{ search: '', replace: 'fresh\n' }]],
      ],
    );
  });

  test('a block without a path, a divider or an end is refused with the line', () => {
    assert.match(refusal(['<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE'].join('\n')), /Line 1: the block has no file path/);
    assert.match(refusal(['x.txt', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE'].join('\n')), /x\.txt .*has no "=======" line/);
    assert.match(refusal(['x.txt', '<<<<<<< SEARCH', 'a', '=======', 'b'].join('\n')), /has no ">>>>>>> REPLACE" line/);
  });
});

suite('patch parser: every section of a git diff is accounted for', () => {
  const sections = (text: string) => files(text).map((file) => ({ ...file }) as Record<string, unknown>);

  test('a new empty file, a pure rename, a mode change and a binary patch are sections, not skipped', () => {
    // Found: sections without a hunk were skipped silently and the rest of the patch was applied and reported ok.
    const text = [
      'diff --git a/empty.txt b/empty.txt',
      'new file mode 100644',
      'index 0000000..e69de29',
      'diff --git a/old name.txt b/new name.txt',
      'similarity index 100%',
      'rename from old name.txt',
      'rename to new name.txt',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/logo.png b/logo.png',
      'index 1111111..2222222 100644',
      'Binary files a/logo.png and b/logo.png differ',
      'diff --git a/x.txt b/x.txt',
      '--- a/x.txt',
      '+++ b/x.txt',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '',
    ].join('\n');
    const parsed = sections(text);
    assert.deepStrictEqual(parsed.map((file) => [file.kind, file.path]), [['create', 'empty.txt'], ['rename', 'new name.txt'], ['refused', 'run.sh'], ['refused', 'logo.png'], ['modify', 'x.txt']]);
    assert.strictEqual(parsed[0].content, '');
    assert.strictEqual(parsed[1].from, 'old name.txt');
    assert.match(String(parsed[2].message), /run\.sh.*mode|mode.*run\.sh/s);
    assert.match(String(parsed[2].message), /chmod/);
    assert.match(String(parsed[3].message), /logo\.png/);
    assert.match(String(parsed[3].message), /binary/i);
  });
});

suite('patch parser: the search/replace divider', () => {
  test('a "=======" line inside a block is ambiguous and refused naming the file', () => {
    // Found: an RST heading underline in REPLACE ended the block early and the refusal named no file.
    const text = ['docs/index.rst', '<<<<<<< SEARCH', 'Intro', '=======', 'Introduction', '=======', '>>>>>>> REPLACE'].join('\n');
    const message = refusal(text);
    assert.match(message, /docs\/index\.rst/);
    assert.match(message, /=======/);
    assert.match(message, /ambiguous|divider/i);
  });
});

suite('patch parser: git extended headers, one table', () => {
  const git = (...lines: string[]) => lines.join('\n') + '\n';
  const hunk = ['--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b'];
  const cases: [string, string, (file: FilePatch) => void][] = [
    ['index with a mode', git('diff --git a/x b/x', 'index 0123abc..4567def 100644', ...hunk), (f) => assert.deepStrictEqual(f.kind === 'modify' && f.changes.format === 'unified' && f.changes.index, { old: '0123abc', new: '4567def' })],
    ['dissimilarity index (a rewrite)', git('diff --git a/x b/x', 'dissimilarity index 90%', 'index 0123abc..4567def 100644', ...hunk), (f) => assert.strictEqual(f.kind, 'modify')],
    ['rename old/new (the old spelling)', git('diff --git a/p b/q', 'rename old p', 'rename new q'), (f) => assert.deepStrictEqual(f, { kind: 'rename', from: 'p', path: 'q', changes: undefined })],
    ['quoted rename names', git('diff --git "a/p q" "b/r\\"s"', 'rename from "p q"', 'rename to "r\\"s"'), (f) => assert.deepStrictEqual(f, { kind: 'rename', from: 'p q', path: 'r"s', changes: undefined })],
    ['copy with hunks', git('diff --git a/p b/q', 'similarity index 90%', 'copy from p', 'copy to q', '--- a/p', '+++ b/q', '@@ -1 +1 @@', '-a', '+b'), (f) => assert.ok(f.kind === 'copy' && f.from === 'p' && f.path === 'q' && f.changes?.format === 'unified')],
    ['new file mode 100755', git('diff --git a/run b/run', 'new file mode 100755', '--- /dev/null', '+++ b/run', '@@ -0,0 +1 @@', '+x'), (f) => assert.ok(f.kind === 'refused' && /chmod \+x run/.test(f.message))],
    ['a symbolic link', git('diff --git a/l b/l', 'new file mode 120000', '--- /dev/null', '+++ b/l', '@@ -0,0 +1 @@', '+target', '\\ No newline at end of file'), (f) => assert.ok(f.kind === 'refused' && /symbolic link/.test(f.message))],
    ['a deleted executable file', git('diff --git a/run b/run', 'deleted file mode 100755', '--- a/run', '+++ /dev/null', '@@ -1 +0,0 @@', '-x'), (f) => assert.deepStrictEqual(f, { kind: 'delete', path: 'run', expected: 'x\n' })],
    ['GIT binary patch', git('diff --git a/i.png b/i.png', 'index 1111111..2222222 100644', 'GIT binary patch', 'literal 5', 'McmZQzU|?VX00001', '', 'literal 0', 'HcmV?d00001', ''), (f) => assert.ok(f.kind === 'refused' && /binary data/.test(f.message))],
    ['mnemonic prefixes (diff.mnemonicPrefix)', git('diff --git i/x w/x', '--- i/x', '+++ w/x', '@@ -1 +1 @@', '-a', '+b'), (f) => assert.strictEqual(f.path, 'x')],
  ];
  for (const [name, text, check] of cases) {
    test(`${name}`, () => {
      const parsed = files(text);
      assert.strictEqual(parsed.length, 1);
      check(parsed[0]);
    });
  }

  test('old and new names that differ without rename lines, and a new file whose hunk expects old lines, are refused', () => {
    assert.match(refusal(git('diff --git a/p b/q', '--- a/p', '+++ b/q', '@@ -1 +1 @@', '-a', '+b')), /old and new names differ/);
    assert.match(refusal(git('diff --git a/n b/n', 'new file mode 100644', '--- /dev/null', '+++ b/n', '@@ -1 +1 @@', '-a', '+b')), /creates n but its hunks expect old lines/);
  });
});
