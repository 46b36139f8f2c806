/**
 * One builder per refusal code: every situation a builder words comes out with that builder's code, names the
 * file, and tells the agent a next step. Called with sample arguments, so a new situation cannot slip in under
 * another code.
 */
import * as assert from 'assert';
import { ambiguousMatch } from '../../../src/core/refusals/ambiguousMatch';
import { binaryFile } from '../../../src/core/refusals/binaryFile';
import { callCancelled } from '../../../src/core/refusals/cancelled';
import { editNoChange } from '../../../src/core/refusals/editNoChange';
import { fileChanged } from '../../../src/core/refusals/fileChanged';
import { fileExists } from '../../../src/core/refusals/fileExists';
import { fileNotFound } from '../../../src/core/refusals/fileNotFound';
import { fileTooLarge } from '../../../src/core/refusals/fileTooLarge';
import { noOccurrenceFound } from '../../../src/core/refusals/noOccurrenceFound';
import { outsideSeenRange } from '../../../src/core/refusals/outsideSeenRange';
import { pathInvalid } from '../../../src/core/path/pathInvalid';
import { ERROR_CODES, type Refusal } from '../../../src/core/refusals/refusal';
import { rejectedByUser } from '../../../src/core/refusals/rejectedByUser';
import { requiresPriorRead } from '../../../src/core/refusals/requiresPriorRead';
import { revertConflict } from '../../../src/core/refusals/revertConflict';
import { specialFile } from '../../../src/core/refusals/specialFile';
import { targetIsDirectory } from '../../../src/core/refusals/targetIsDirectory';
import { verificationFailed } from '../../../src/core/refusals/verificationFailed';
import { writeFailed } from '../../../src/core/refusals/writeFailed';

const PATH = '/w/src/app.ts';
const builders: [string, Record<string, (...args: never[]) => Refusal>][] = [
  ['AMBIGUOUS_MATCH', ambiguousMatch],
  ['BINARY_FILE', binaryFile],
  ['CANCELLED', callCancelled],
  ['EDIT_NO_CHANGE', editNoChange],
  ['FILE_CHANGED_SINCE_READ', fileChanged],
  ['FILE_EXISTS', fileExists],
  ['FILE_NOT_FOUND', fileNotFound],
  ['FILE_TOO_LARGE', fileTooLarge],
  ['NO_OCCURRENCE_FOUND', noOccurrenceFound],
  ['EDIT_OUTSIDE_SEEN_RANGE', outsideSeenRange],
  ['PATH_INVALID', pathInvalid],
  ['REJECTED_BY_USER', rejectedByUser],
  ['EDIT_REQUIRES_PRIOR_READ', requiresPriorRead],
  ['REVERT_CONFLICT', revertConflict],
  ['SPECIAL_FILE', specialFile],
  ['TARGET_IS_DIRECTORY', targetIsDirectory],
  ['PRIOR_READ_VERIFICATION_FAILED', verificationFailed],
  ['WRITE_FAILED', writeFailed],
];

/** Sample arguments by position: the path first, then what the builders take (a detail, counts, a reason). */
function sample(builder: (...args: never[]) => Refusal, numbers: boolean): Refusal {
  const args = numbers ? [PATH, 1200, 1000, 'reads'] : [PATH, 'detail 1', 'lines 4–5', 'edit 2 of your 3 edits'];
  return (builder as (...a: unknown[]) => Refusal)(...args.slice(0, Math.max(1, builder.length)));
}

suite('refusal builders: one per code, each situation with that code', () => {
  for (const [code, builder] of builders) {
    test(`${code}: every situation comes out as ${code}`, () => {
      assert.ok((ERROR_CODES as readonly string[]).includes(code));
      for (const [situation, build] of Object.entries(builder)) {
        let refusal: Refusal;
        if (builder === outsideSeenRange) {
          const who = { subject: 'The change' };
          const readAlone = { lines: [4], maxLineLength: 2000 };
          refusal = {
            unseen: () => outsideSeenRange.unseen(PATH, '4–5', who, readAlone),
            beyondReadCap: () => outsideSeenRange.beyondReadCap(PATH, who, '4', { maxLines: 2000, maxBytes: 100, maxLineLength: 2000 }, '4–5'),
            writeBeyondReadCap: () => outsideSeenRange.writeBeyondReadCap(PATH, '4–5', 9, '4', { maxLines: 2000, maxBytes: 100, maxLineLength: 2000 }),
            writeNeedsFullRead: () => outsideSeenRange.writeNeedsFullRead(PATH, '4–5', 9, readAlone),
          }[situation as 'unseen']();
        } else if (builder === fileNotFound && situation === 'missing') {
          refusal = fileNotFound.missing(PATH, []);
        } else if (builder === binaryFile) {
          refusal = binaryFile.binary(PATH, 'PNG image', 2048, 'reads');
        } else if (builder === ambiguousMatch) {
          refusal = ambiguousMatch.several(PATH, 2, 'lines 3, 9');
        } else if (builder === pathInvalid) {
          refusal = {
            nameTooLong: () => pathInvalid.nameTooLong(PATH, 'app.ts', 300, 255),
            pathTooLong: () => pathInvalid.pathTooLong(PATH, 5000, 4095),
            tooLongForFileSystem: () => pathInvalid.tooLongForFileSystem(PATH),
          }[situation as 'nameTooLong']();
        } else if (builder === targetIsDirectory) {
          refusal = targetIsDirectory.directory(PATH, ['a.ts']);
        } else {
          refusal = sample(build, builder === fileTooLarge);
        }
        assert.strictEqual(refusal.ok, false);
        assert.strictEqual(refusal.code, code, `${situation} came out as ${refusal.code}`);
        assert.ok(refusal.message.length > 20, `${situation}: ${refusal.message}`);
        if (code !== 'CANCELLED') assert.ok(refusal.message.includes(PATH), `${situation} does not name the file: ${refusal.message}`);
      }
    });
  }

  test('every code a file operation can refuse with has a builder (INVALID_INPUT and most path codes are worded by their validators)', () => {
    const covered = new Set(builders.map(([code]) => code));
    const byValidators = ['PATH_DENIED', 'INVALID_INPUT'];
    assert.deepStrictEqual(ERROR_CODES.filter((code) => !covered.has(code) && !byValidators.includes(code)), []);
  });
});
