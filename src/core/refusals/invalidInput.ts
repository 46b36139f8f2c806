/**
 * INVALID_INPUT: arguments that are not what a call takes, and changes that contradict themselves. Its wording
 * lives here, with its code: each situation has one builder, so the same mistake reads the same on every surface.
 * (A patch's syntax errors are worded where the parser finds them, since they quote its grammar; they too are
 * refused through `invalidInput.patch`.) No message runs the caller's code to name a value: `describeValue`.
 */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { type Refusal, refuse } from './refusal';

/** A caller's value named for a message without running any of its code. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n (a BigInt)`;
    case 'undefined':
      return 'nothing';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return 'null';
      try {
        return Array.isArray(value) ? 'a list' : 'an object';
      } catch {
        return 'an object'; // a revoked Proxy
      }
  }
}

/** A number as given: JSON for numbers (so 1.5, -2 and NaN read as they were sent), `describeValue` for the rest. */
function givenNumber(value: unknown): string {
  return typeof value === 'number' ? JSON.stringify(value) : describeValue(value);
}

const invalid = (message: string): Refusal => refuse('INVALID_INPUT', message);

const EDIT_SHAPE = '{ oldString, newString, replaceAll? }';

/** The arguments of a guard session's calls. `where` names the field, e.g. "edits[2]" or "changes[1].path". */
export const invalidArgument = {
  notAString: (where: string, what: string, value: unknown): Refusal => invalid(`${where} must be a string (${what}), not ${describeValue(value)}.`),
  unreadable: (where: string): Refusal => invalid(`${where} must be plain data, but reading it threw (a getter or a Proxy). Pass plain values.`),
  editList: (where: string): Refusal => invalid(`${where} must be a non-empty list of ${EDIT_SHAPE}.`),
  /** `where` is "edits", or "changes" for all of a multiEdit's lists together. */
  tooManyEdits(where: string, count: number, max: number): Refusal {
    const has = where === 'changes' ? 'have' : 'has';
    const total = where === 'changes' ? ' in all' : '';
    return invalid(
      `${where} ${has} ${formatCount(count)} edits${total}; at most ${formatCount(max)} edits are allowed in one call. Split the change into several calls.`,
    );
  },
  editObject: (where: string): Refusal => invalid(`${where} must be an object ${EDIT_SHAPE}.`),
  oldString: (where: string): Refusal => invalid(`${where}.oldString must be a string (the exact text to replace; "" creates a new file).`),
  newString: (where: string): Refusal => invalid(`${where}.newString must be a string (the replacement text).`),
  replaceAll: (where: string): Refusal => invalid(`${where}.replaceAll must be true or false.`),
  line: (where: string, value: unknown): Refusal =>
    invalid(`${where}.line must be a whole number ≥ 1 (the line where oldString starts), not ${describeValue(value)}.`),
  lineAndReplaceAll: (where: string): Refusal =>
    invalid(`${where} has both line and replaceAll: line names one place, replaceAll every place. Give one of them.`),
  createNotFirst: (where: string): Refusal =>
    invalid(`${where}.oldString is empty: only the first edit may create a file (empty oldString); give the exact text to replace.`),
  changesList: (): Refusal =>
    invalid('changes must be a non-empty list of { path, edits, expectedVersion? } (or { path, delete: true }, { path, moveTo, edits? }).'),
  changeObject: (where: string): Refusal => invalid(`${where} must be an object { path, edits, expectedVersion? }.`),
  deleteNotTrue: (where: string, value: unknown): Refusal => invalid(`${where}.delete must be true when given, not ${describeValue(value)}.`),
  moveToEmpty: (where: string): Refusal => invalid(`${where}.moveTo is empty: name the path the file moves to.`),
  deleteAlone: (where: string, alsoMoves: boolean): Refusal =>
    invalid(`${where} deletes the file and also ${alsoMoves ? 'moves it' : 'edits it'}: a deletion comes alone.`),
  changeEdits: (where: string): Refusal =>
    invalid(`${where}.edits must be a non-empty list of ${EDIT_SHAPE} (or the change must be { path, delete: true } or { path, moveTo }).`),
  expectedVersion: (where: string): Refusal => invalid(`${where} must be a version tag from a read or a mutation result.`),
  explanation: (): Refusal => invalid('explanation must be a string.'),
  renameToEmpty: (): Refusal => invalid('to is empty: name the path the file moves to.'),
  patchEmpty: (): Refusal => invalid('patch is empty: pass the whole patch text.'),
  lineNumber: (name: 'offset' | 'limit', value: unknown): Refusal =>
    invalid(`${name} must be a whole number ≥ 1 (${name === 'offset' ? 'the first line to return' : 'how many lines to return'}), not ${givenNumber(value)}.`),
  force: (): Refusal => invalid('force must be true or false.'),
  maxChars: (value: unknown): Refusal =>
    invalid(`maxChars must be a whole number ≥ 1 (the most characters this read's result may hold), not ${givenNumber(value)}.`),
  signal: (threw: boolean): Refusal => invalid(`options.signal must be an AbortSignal.${threw ? ' Reading or listening to the one given threw.' : ''}`),
  pastEnd: (path: string, offset: number, totalLines: number): Refusal =>
    invalid(
      `offset ${offset} is past the end of ${displayPath(path)}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}. Read with an offset from 1 to ${totalLines}.`,
    ),
  /** A multiEdit naming one file twice (or by two names) with two different versions: one of them is wrong. */
  conflictingVersions: (path: string, first: string, second: string): Refusal =>
    invalid(
      `${displayPath(path)} is named with two different expectedVersion values (${first} and ${second}); a file is at one version. Pass the version your read of it showed, the same for each of its edits.`,
    ),
};

const REVERT_TARGETS = '{ changeId }, { sessionId } or { sessionId, path }, each a non-empty string';

/** `Guard.revert`: what to revert, and whether the history can revert it. */
export const invalidRevert = {
  noHistory: (): Refusal =>
    invalid('This guard keeps no change history (createGuard was given no history folder), so there is nothing to revert. Nothing was changed.'),
  target: (value: unknown): Refusal => invalid(`target must be ${REVERT_TARGETS}, not ${describeValue(value)}. Nothing was changed.`),
  /** A field a revert target does not have (`{ sessionId, file }`, say): never guessed at, never ignored. */
  targetField: (name: string): Refusal =>
    invalid(`target has a field ${describeValue(name)}, which a revert target does not have: it must be ${REVERT_TARGETS}. Nothing was changed.`),
  targetFieldType: (name: string, value: unknown): Refusal =>
    invalid(`target.${name} must be a non-empty string, not ${describeValue(value)}. Nothing was changed.`),
  option: (name: string, value: unknown): Refusal => invalid(`options.${name} must be a non-empty string when given, not ${describeValue(value)}.`),
  unknownChange: (id: string): Refusal =>
    invalid(
      `There is no change ${describeValue(id)} in the history (older than the history keeps, or recorded in another history folder). Nothing was changed. List the changes with history() and name one of their ids.`,
    ),
  unknownSession: (id: string): Refusal =>
    invalid(
      `The history holds no change of session ${describeValue(id)}. Nothing was changed. List the changes with history() to see which sessions made changes.`,
    ),
  /** `{ sessionId, path }`: none of the session's changes on record touched that file (or its earlier names). */
  noChangeOfFile: (id: string, path: string): Refusal =>
    invalid(
      `Session ${describeValue(id)} has no change of ${displayPath(path)} on record (none made, older than the history keeps, or another name of the file). Nothing was changed. List its changes with history({ sessionId }) to see which files it changed.`,
    ),
  /** A version the record names is not in the history folder (removed by something else), or failed its check. */
  contentsGone: (id: string, path: string, damaged: boolean): Refusal =>
    invalid(
      `The history no longer holds the file contents of change ${describeValue(id)}: a version of ${displayPath(path)} it names ${damaged ? "is damaged (set aside in the history folder's damaged/ folder)" : 'is missing from the history folder'}, so it cannot be reverted. Nothing was changed.`,
    ),
  /** Trouble, not loss: a version could not be read just now (a permission, too many open files). */
  contentsUnreadable: (id: string, path: string, reason: string): Refusal =>
    invalid(
      `The file contents of change ${describeValue(id)} (${displayPath(path)}) could not be read just now (${reason}). Nothing was changed. Try again; the history keeps them.`,
    ),
  historyUnreadable: (reason: string): Refusal => invalid(`The history folder could not be read just now (${reason}). Nothing was changed. Try again.`),
  unreadableChange: (id: string, reason: string): Refusal =>
    invalid(`The record of change ${describeValue(id)} could not be read just now (${reason}). Nothing was changed. Try again; the history keeps it.`),
  /** A session revert while some record files cannot be read: any of them may be one of the session's changes. */
  unreadableRecords: (count: number, reason: string): Refusal =>
    invalid(
      `${count === 1 ? 'A record file' : `${count} record files`} of the history could not be read just now (${reason}), and any of them may be a change of this session, so it cannot be reverted now. Nothing was changed. Try again; the history keeps ${count === 1 ? 'it' : 'them'}.`,
    ),
  /**
   * The session's oldest changes on record name earlier ones that are not (`missing`): reverting what is left would
   * not put its files back as they were before it.
   */
  lostChanges: (sessionId: string, missing: readonly string[], kept: number, path?: string): Refusal => {
    const named = missing.map(describeValue).join(', ');
    const what = path === undefined ? 'its files' : displayPath(path);
    return invalid(
      `Session ${describeValue(sessionId)} no longer has all its changes on record: ${missing.length === 1 ? 'change' : 'changes'} ${named} and every change of the session before ${missing.length === 1 ? 'it were' : 'them were'} dropped by the history's budget (the oldest changes leave first) or set aside as damaged, so reverting it would not put ${what} back as before the session. Nothing was changed. Its ${kept} change${kept === 1 ? '' : 's'} still on record can each be reverted on their own ({ changeId }), newest first.`,
    );
  },
};

/** The input of a language model tool or MCP tool call (`tools/`). */
export const invalidToolInput = {
  notAnInput: (field: string, tool: string, inputs: string): Refusal =>
    invalid(`${field} is not an input of ${tool}; its inputs are ${inputs}. Leave it out (or correct its name).`),
  fieldType: (field: string, type: string, optional: boolean, value: unknown): Refusal =>
    invalid(`${field} must be a ${type}${optional ? ' when given' : ''}; got ${describeValue(value)}.`),
  shape: (where: string, shape: string): Refusal => invalid(`${where} must be ${shape}.`),
  versions: (index: number, version: string, first: number, firstVersion: string): Refusal =>
    invalid(
      `input.edits[${index}].expectedVersion (${version}) differs from input.edits[${first}].expectedVersion (${firstVersion}) for the same file; a file is at one version. Pass the version your read of it showed.`,
    ),
  noSuchTool: (name: unknown, tools: readonly string[]): Refusal =>
    invalid(`There is no tool named ${describeValue(name)}; ReadGate's tools are ${tools.join(', ')}.`),
};

/** Changes that contradict themselves, or that the file's encoding cannot hold. */
export const invalidInput = {
  /** A change that creates a file and moves it in one step. */
  createThenMove(path: string, moveTo: string): Refusal {
    return invalid(`${displayPath(path)} does not exist yet: create it at ${displayPath(moveTo)} instead of creating and moving it.`);
  },
  /** New text with a character the file's encoding cannot hold. */
  unencodable(path: string, encoding: string, char: string): Refusal {
    const code = char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
    return invalid(
      `${displayPath(path)} is ${encoding}, which cannot hold the character ${JSON.stringify(char)} (U+${code}) your change contains. Nothing was written; use characters that exist in this encoding.`,
    );
  },
  moveToItself(path: string): Refusal {
    return invalid(`${displayPath(path)} would move to itself. Nothing was changed; name another path in moveTo, or leave moveTo out.`);
  },
  /** A file deleted or moved is named once, and no two changes of a call end at one path. */
  namedTwice(path: string, earlier: string): Refusal {
    const same = path === earlier ? `${displayPath(path)} is named twice` : `${displayPath(path)} and ${displayPath(earlier)} are the same file`;
    return invalid(
      `${same} in one change, where one of them deletes it, moves it or moves another file there. Nothing was changed; name each file once (edits of a file that moves go with its move).`,
    );
  },
  /** A patch's syntax error, as its parser words it (see the file comment). */
  patch: (message: string): Refusal => invalid(message),
  patchNamesTwice: (path: string): Refusal =>
    invalid(
      `The patch changes ${displayPath(path)} in two ways that cannot be one change (for example deletes it and creates it again). Nothing was changed. Split the patch.`,
    ),
  patchRenamesEmpty: (path: string): Refusal =>
    invalid(`The patch renames the empty file ${displayPath(path)} and fills it; do the two separately. Nothing was changed.`),
  /** `agent`: the agent's patch tool (one call), else the user's Apply Patch (which applies parts itself). */
  patchFillsEmptyWithOthers: (path: string, agent: boolean): Refusal =>
    agent
      ? invalid(
          `The patch fills the empty file ${path} and changes other files; an empty file is filled on its own. Nothing was changed. Apply its part in a patch of its own.`,
        )
      : invalid(
          `${displayPath(path)} is empty, and an empty file can only be filled on its own, not in a patch of several files. Nothing was changed. Apply its part separately.`,
        ),
  patchChangesThenDeletes: (path: string): Refusal =>
    invalid(`The patch changes ${displayPath(path)} and then deletes it. Nothing was changed. Remove the changes to ${displayPath(path)} from the patch.`),
  patchRenamesToItself: (path: string): Refusal => invalid(`The patch renames ${displayPath(path)} to itself. Nothing was changed.`),
  patchJoinsLine: (quoted: string, path: string): Refusal =>
    invalid(
      `The patch would leave ${quoted} without a line break in the middle of ${displayPath(path)} (a "\\ No newline at end of file" line on a line that does not end the file). Nothing was changed.`,
    ),
  /** A hunk without context lines whose place only its line numbers give. */
  patchContextFree: (path: string, n: number, line: number, why: string): Refusal =>
    invalid(
      `Hunk ${n} of ${displayPath(path)} (at line ${line}) has no context lines (a diff made with -U0), so only its line numbers say where it goes, and nothing shows that ${displayPath(path)} is still the version the diff was made from (${why}). ` +
        'Nothing was changed. Make the diff again with context lines (git diff -U3, the default), or, if the file is that version, apply it with the unidiffZero option (as git apply --unidiff-zero).',
    ),
  /** A single edit (a palette edit) asked to do what only a multi-file change can. */
  singleEditCannot: (text: string): Refusal => invalid(`The patch ${text}. Nothing was changed.`),
};
