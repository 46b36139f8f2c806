/**
 * Which file and which of its lines a shell command shows (`shellReads.ts`): the forms Codex's models use to read
 * (cat, sed -n, nl -ba, head, tail, rg -n, grep -n, piped through head, tail or sed -n), and everything else, which
 * is not attributed: other programs and options, redirections, second commands, expansions, globs, several files.
 */
import * as assert from 'assert';
import { narrowed, shellRead, shellWords } from '../../../src/hooks/shellReads';

suite('shell reads: what a command shows of which file', () => {
  test('one reader: cat, cat -n, nl -ba, sed -n, head, tail, rg -n, grep -n', () => {
    assert.deepStrictEqual(shellRead('cat a.txt'), { file: 'a.txt', form: 'plain', first: 1, last: -1 });
    assert.deepStrictEqual(shellRead('cat -n src/a.ts'), { file: 'src/a.ts', form: 'numbered' });
    assert.deepStrictEqual(shellRead('nl -ba a.txt'), { file: 'a.txt', form: 'numbered' });
    assert.deepStrictEqual(shellRead('nl -b a a.txt'), { file: 'a.txt', form: 'numbered' });
    assert.deepStrictEqual(shellRead("sed -n '3,8p' a.txt"), { file: 'a.txt', form: 'plain', first: 3, last: 8 });
    assert.deepStrictEqual(shellRead('sed -n 5p a.txt'), { file: 'a.txt', form: 'plain', first: 5, last: 5 });
    assert.deepStrictEqual(shellRead("sed -n '40,$p' a.txt"), { file: 'a.txt', form: 'plain', first: 40, last: -1 });
    assert.deepStrictEqual(shellRead('head -n 20 a.txt'), { file: 'a.txt', form: 'plain', first: 1, last: 20 });
    assert.deepStrictEqual(shellRead('head -5 a.txt'), { file: 'a.txt', form: 'plain', first: 1, last: 5 });
    assert.deepStrictEqual(shellRead('head a.txt'), { file: 'a.txt', form: 'plain', first: 1, last: 10 });
    assert.deepStrictEqual(shellRead('tail -n 20 a.txt'), { file: 'a.txt', form: 'plain', first: -20, last: -1 });
    assert.deepStrictEqual(shellRead('tail -n +30 a.txt'), { file: 'a.txt', form: 'plain', first: 30, last: -1 });
    assert.deepStrictEqual(shellRead('rg -n "line 2" a.txt'), { file: 'a.txt', form: 'numbered' });
    assert.deepStrictEqual(shellRead('grep -n -i -C 2 foo "my file.txt"'), { file: 'my file.txt', form: 'numbered' });
    assert.deepStrictEqual(shellRead('rg -n -e x -- a.txt'), { file: 'a.txt', form: 'numbered' });
  });

  test('piped: head, tail and sed -n narrow a plain output; a numbered one keeps its numbers', () => {
    assert.deepStrictEqual(shellRead('cat a.txt | head -3'), { file: 'a.txt', form: 'plain', first: 1, last: 3 });
    assert.deepStrictEqual(shellRead('cat a.txt | tail -n 4'), { file: 'a.txt', form: 'plain', first: -4, last: -1 });
    assert.deepStrictEqual(shellRead("sed -n '10,50p' a.txt | head -n 5"), { file: 'a.txt', form: 'plain', first: 10, last: 14 });
    assert.deepStrictEqual(shellRead('tail -n 20 a.txt | head -n 5'), { file: 'a.txt', form: 'plain', first: -20 });
    assert.deepStrictEqual(shellRead('nl -ba a.txt | sed -n 10,12p'), { file: 'a.txt', form: 'numbered' });
    assert.deepStrictEqual(shellRead('rg -n foo a.txt | head -3'), { file: 'a.txt', form: 'numbered' });
  });

  test('the ends of a filtered output, where one signed number can say them, else left unknown', () => {
    assert.deepStrictEqual(narrowed(1, -1, { kind: 'range', from: 5, to: 9 }), { first: 5, last: 9 });
    assert.deepStrictEqual(narrowed(10, 50, { kind: 'head', count: 100 }), { first: 10, last: 50 });
    assert.deepStrictEqual(narrowed(10, 50, { kind: 'tail', count: 5 }), { last: 50 });
    assert.deepStrictEqual(narrowed(-20, -1, { kind: 'tail', count: 5 }), { first: -5, last: -1 });
    assert.deepStrictEqual(narrowed(-20, -1, { kind: 'range', from: 3, to: 4 }), {});
    assert.deepStrictEqual(narrowed(3, -1, { kind: 'tailFrom', count: 2 }), { first: 4, last: -1 });
  });

  test('anything else is not attributed', () => {
    for (const command of [
      'cat a.txt b.txt',
      'cat a.txt > b.txt',
      'cat < a.txt',
      'cat a.txt; rm a.txt',
      'cd src && cat a.txt',
      'cat $FILE',
      'cat "$FILE"',
      'cat `x`',
      'cat *.txt',
      'cat ~/a.txt',
      'cat a.txt || true',
      'cat a.txt &',
      'sed -i s/a/b/ a.txt',
      "sed -n '1,5p;9p' a.txt",
      "sed -n '/x/p' a.txt",
      'rg foo a.txt',
      'rg -n foo a.txt b.txt',
      'head -c 10 a.txt',
      'tail -f a.txt',
      'cat a.txt | sort',
      'cat a.txt | head | tail | sed -n 1p',
      'python -c "print(1)"',
      'less a.txt',
      "cat 'unclosed",
      '',
    ]) {
      assert.strictEqual(shellRead(command), undefined, command);
    }
  });

  test('words: quotes join, a pipe separates; || and specials refuse', () => {
    assert.deepStrictEqual(shellWords(`sed -n '1,2p' "a b".txt|head`), ['sed', '-n', '1,2p', 'a b.txt', '|', 'head']);
    assert.strictEqual(shellWords('a || b'), undefined);
    assert.strictEqual(shellWords('echo "a\\"b"'), undefined);
  });
});
