/** The plan of a file a change creates: its first edit's text (with the call's later edits applied) or a write. Pure. */
import { applyEdits } from '../edit/applyEdits';
import { indexLines } from '../text/lineEndings';
import { computeLineChanges } from '../edit/lineDiff';
import { rangesOf } from '../text/lineRanges';
import type { ReadLimits } from '../text/resultBudget';
import { editRefusal } from '../refusals/editRefusal';
import { fileTooLarge } from '../refusals/fileTooLarge';
import type { Refusal } from '../refusals/refusal';
import type { ChangeRequest, FilePlan, PlanInput } from './filePlan';

type Creating = Exclude<ChangeRequest, { kind: 'delete' } | { kind: 'loose' }>;

/** The new file's text, or the refusal of the call's later edits. */
function createdText(path: string, request: Creating, limits: ReadLimits): { text: string; replacements: number } | Refusal {
  if (request.kind === 'write') return { text: request.content, replacements: 0 };
  // The first edit has an empty oldString (the caller checked): it creates the file.
  const [first, ...rest] = request.edits;
  if (!rest.length) return { text: first.newString, replacements: 0 };
  const all = indexLines(first.newString).count;
  const applied = applyEdits(first.newString, rest, rangesOf(1, all));
  if (!applied.ok) return editRefusal(path, applied, limits, undefined, true);
  return { text: applied.text, replacements: applied.replacements };
}

export function planCreate(input: PlanInput & { request: Creating }, limits: ReadLimits, maxFileBytes: number): FilePlan | Refusal {
  const created = createdText(input.path, input.request, limits);
  if ('ok' in created) return created;
  const { text, replacements } = created;
  const afterBytes = new TextEncoder().encode(text);
  if (afterBytes.length > maxFileBytes) return fileTooLarge.content(input.path, afterBytes.length, maxFileBytes);
  const afterIndex = indexLines(text);
  return {
    path: input.path,
    target: input.target,
    created: true,
    beforeText: '',
    encoding: 'utf8',
    afterText: text,
    seenBefore: [],
    seenAfter: rangesOf(1, afterIndex.count),
    replacements,
    changes: computeLineChanges('', text),
    afterBytes,
    beforeIndex: indexLines(''),
    afterIndex,
  };
}
