/**
 * Search/replace blocks mean to ReadGate what they mean to aider, case by case: `fixtures/aider-cases.json`
 * holds 400 generated cases (a file, possibly missing, with CRLF or without a final line break, and blocks
 * text: several blocks, blank and whitespace-only SEARCH, trailing and leading blank lines, changed
 * indentation, `...` elisions, code fences, file names in bold or backticks or missing, "=======" and
 * "==========" lines in the text, CRLF), each with what aider's own functions did with it.
 *
 * How it was generated: aider's `aider/coders/editblock_coder.py` at commit
 * 5dc9490bb35f9729ef2c95d00a19ccd30c26339c (Aider-AI/aider), loaded in plain Python 3.11 with stub modules for
 * its unrelated imports, ran on each case in a temporary folder holding the file: `find_original_update_blocks`
 * (default fence, no list of chat files) for the blocks or the parse error, `strip_quoted_wrapping` for each
 * part as aider reads it, and aider's `apply_edits` steps with the file as the only chat file (`do_replace`,
 * and its retry on the chat file when the named file is not it) for the result and, per block, whether
 * `perfect_replace` matched exactly ("exact", "exact-empty" when the exact result is an empty file), a
 * blank SEARCH appended ("append", "create"), or only a fallback matched ("fallback") or nothing ("nomatch").
 * `exactOnly` applies the blocks with `perfect_replace` alone (an empty result counted), on the file with a
 * final line break added; `exactOnlyBlankKept` the same with parts read keeping a trailing blank line. The
 * script that built it is not part of the repository, nor is any of aider's code.
 *
 * The property: ReadGate's result equals aider's exact-match result on every case, given the deliberate
 * differences (searchReplace.ts, placeBlocks.ts): fuzzy matches are refused; a trailing blank line of a part is
 * kept; a second divider line is refused as ambiguous; a missing final line break is kept where aider adds
 * one (so a result may lack exactly aider's last '\n'); an emptied or empty created file is written, where
 * aider reports an empty result as a failed block.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parsePatch, planPatch } from '../../../src/core/index';
import { toLf } from '../../../src/core/text/lineEndings';
import { repoRoot } from '../helpers/repoRoot';
import { applyOperation } from './planResult';

interface AiderCase {
  tags: string[];
  path: string;
  file: string | null;
  blocks: string;
  aider: {
    parseError?: string;
    blocks?: [string, string, string][];
    stripped?: [string, string][];
    statuses?: string[];
    result?: string | null;
    resultWithFinalNewline?: string | null;
    exactOnly?: string | null;
    exactOnlyBlankKept?: string | null;
  };
}

const fixture = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/unit/patch/fixtures/aider-cases.json'), 'utf8')) as { generatedBy: string; cases: AiderCase[] };

suite('search/replace blocks against aider\'s own functions (fixtures/aider-cases.json)', () => {
  test('the fixture comes from aider\'s code and its exact-match oracle agrees with aider where aider matched exactly', () => {
    assert.match(fixture.generatedBy, /editblock_coder\.py at aider commit [0-9a-f]{40}/);
    assert.ok(fixture.cases.length >= 300, `${fixture.cases.length} cases`);
    for (const [index, c] of fixture.cases.entries()) {
      const statuses = c.aider.statuses ?? [];
      if (statuses.length > 0 && statuses.every((status) => ['exact', 'append', 'create'].includes(status))) {
        assert.strictEqual(c.aider.resultWithFinalNewline, c.aider.exactOnly, `case ${index}`);
      }
    }
  });

  test('ReadGate parses every block as aider does, or refuses where aider fails or silently truncates a block', () => {
    for (const [index, c] of fixture.cases.entries()) {
      const where = `case ${index} ${JSON.stringify(c.tags)}\n${c.blocks}`;
      const parsed = parsePatch(c.blocks);
      if (c.aider.parseError !== undefined || c.tags.includes('divider-in-text')) {
        assert.ok(!parsed.ok, `${where}\nparsed, but aider ${c.aider.parseError ?? 'truncated a block at a second "======="'}`);
        assert.strictEqual(parsed.code, 'INVALID_INPUT');
        assert.ok(parsed.message.includes(c.path) || /no file path/.test(parsed.message), `${where}\n${parsed.message}`);
        continue;
      }
      assert.ok(parsed.ok, `${where}\n${parsed.ok ? '' : parsed.message}`);
      const blocks = parsed.files.flatMap((file) => (file.kind === 'modify' && file.changes.format === 'search-replace' ? file.changes.blocks.map((block) => ({ path: file.path, ...block })) : []));
      assert.strictEqual(blocks.length, c.aider.blocks!.length, where);
      blocks.forEach((block, i) => {
        assert.strictEqual(block.path, c.path, where);
        const [search, replace] = c.aider.stripped![i];
        // Equal to aider's reading, or with the trailing blank line aider drops.
        assert.ok(block.search === search || block.search === `${search}\n` || (search === '' && block.search === '\n'), `${where}\nSEARCH ${JSON.stringify(block.search)} vs aider ${JSON.stringify(search)}`);
        assert.ok(block.replace === replace || block.replace === `${replace}\n` || (replace === '' && block.replace === '\n'), `${where}\nREPLACE ${JSON.stringify(block.replace)} vs aider ${JSON.stringify(replace)}`);
      });
    }
  });

  test('ReadGate\'s result equals aider\'s exact-match result on every case, and it refuses where aider has no exact match', () => {
    const tally = { applied: 0, refused: 0, blankKept: 0, emptied: 0 };
    for (const [index, c] of fixture.cases.entries()) {
      const parsed = parsePatch(c.blocks);
      if (!parsed.ok) continue;
      const where = `case ${index} ${JSON.stringify(c.tags)}\n--- file ---\n${c.file}\n--- blocks ---\n${c.blocks}`;
      const blankKept = parsed.files.some((file) => file.kind === 'modify' && file.changes.format === 'search-replace' && file.changes.blocks.some((block, i) => block.search !== c.aider.stripped![i][0] || block.replace !== c.aider.stripped![i][1]));
      const oracle = blankKept ? c.aider.exactOnlyBlankKept : c.aider.exactOnly;
      if (blankKept) tally.blankKept++;
      const plan = planPatch(parsed.files, (file) => (file === c.path && c.file !== null ? { exists: true, text: c.file } : { exists: false }));
      if (oracle === null || oracle === undefined) {
        assert.ok(!plan.ok, `${where}\naider has no exact match, ReadGate applied: ${JSON.stringify(plan)}`);
        assert.ok(['NO_OCCURRENCE_FOUND', 'FILE_NOT_FOUND'].includes(plan.code), `${where}\n${plan.code}: ${plan.message}`);
        assert.match(plan.message, new RegExp(c.path.replace(/\./g, '\\.')));
        tally.refused++;
        continue;
      }
      let result: string;
      const before = c.file === null ? '' : toLf(c.file);
      if (!plan.ok) {
        assert.strictEqual(plan.code, 'EDIT_NO_CHANGE', `${where}\n${plan.message}`);
        result = before;
      } else {
        result = plan.operations.reduce((text, operation) => applyOperation(text, operation), before);
      }
      // aider ends every file it edits with a line break; ReadGate keeps a missing one, so its result may lack
      // exactly that last '\n'.
      assert.ok(result === oracle || `${result}\n` === oracle, `${where}\nReadGate ${JSON.stringify(result)}\naider    ${JSON.stringify(oracle)}`);
      // Where the file had its final line break (or is created), not even that differs.
      if (c.file === null || c.file === '' || toLf(c.file).endsWith('\n')) assert.strictEqual(result, oracle, where);
      if (c.aider.statuses?.includes('exact-empty')) tally.emptied++;
      tally.applied++;
    }
    console.log(`      aider fixture: ${JSON.stringify(tally)}`);
  });
});
