/**
 * The five tools (`readgate_read`, `readgate_edit`, `readgate_multiEdit`, `readgate_write`, `readgate_applyPatch`) as one decision
 * every surface shares: VS Code's language model tools, the MCP server in the extension and the headless MCP
 * server. `parseToolCall` checks a call's input (nothing is trusted: callers send anything) and returns the
 * guard call to run in a session, so the input is refused before any session is touched; the surfaces differ
 * only in where the session comes from and how paths and results are shown.
 */
import type { GuardSession, MultiEditChange } from '../types';
import type { Refusal } from '../refusals/refusal';
import { checkApplyPatchInput, checkEditInput, checkMultiEditInput, checkReadInput, checkWriteInput, groupByFile } from './toolInput';
import { TOOL_NAMES } from './toolNames';
import { invalidToolInput } from '../refusals/invalidInput';

export { TOOL_NAMES, isToolName, type ToolName } from './toolNames';

export type ToolOutcome = { ok: true; text: string } | Refusal;

/** What a surface learns per call: a read's result stays within `maxChars` (VS Code's `tokenBudget`, as characters). */
export interface CallBudget {
  maxChars?: number;
}

/** A checked call: runs the guard call in `session`. */
export type ToolRun = (session: GuardSession, signal?: AbortSignal, budget?: CallBudget) => Promise<ToolOutcome>;

/** Turns a caller's path (an adapter may accept URIs) into the guard's path, or refuses it. */
export type PathMapper = (filePath: string) => string | Refusal;

const asIs: PathMapper = (filePath) => filePath;

/** Checks `input` for tool `name`; returns the call to run, or the INVALID_INPUT / PATH_INVALID refusal. */
export function parseToolCall(name: string, input: unknown, toPath: PathMapper = asIs): { ok: true; run: ToolRun } | Refusal {
  switch (name) {
    case TOOL_NAMES.read: {
      const checked = checkReadInput(input);
      if (!checked.ok) return checked;
      const path = toPath(checked.value.filePath);
      if (typeof path !== 'string') return path;
      const { offset, limit, force } = checked.value;
      return {
        ok: true,
        run: (session, signal, budget) => session.read(path, { offset, limit, force, signal, ...(budget?.maxChars ? { maxChars: budget.maxChars } : {}) }),
      };
    }
    case TOOL_NAMES.edit: {
      const checked = checkEditInput(input);
      if (!checked.ok) return checked;
      const path = toPath(checked.value.filePath);
      if (typeof path !== 'string') return path;
      const { oldString, newString, replaceAll, expectedVersion, explanation } = checked.value;
      const edit = { oldString, newString, ...(replaceAll !== undefined ? { replaceAll } : {}) };
      return { ok: true, run: (session, signal) => session.edit(path, [edit], { expectedVersion, explanation, signal }) };
    }
    case TOOL_NAMES.multiEdit: {
      const checked = checkMultiEditInput(input);
      if (!checked.ok) return checked;
      const groups = groupByFile(checked.value.edits);
      if (!Array.isArray(groups)) return groups;
      const changes: MultiEditChange[] = [];
      for (const group of groups) {
        const path = toPath(group.path);
        if (typeof path !== 'string') return path;
        changes.push({ ...group, path });
      }
      const { explanation } = checked.value;
      return { ok: true, run: (session, signal) => session.multiEdit(changes, { explanation, signal }) };
    }
    case TOOL_NAMES.write: {
      const checked = checkWriteInput(input);
      if (!checked.ok) return checked;
      const path = toPath(checked.value.filePath);
      if (typeof path !== 'string') return path;
      const { content, expectedVersion, explanation } = checked.value;
      return { ok: true, run: (session, signal) => session.write(path, content, { expectedVersion, explanation, signal }) };
    }
    case TOOL_NAMES.applyPatch: {
      const checked = checkApplyPatchInput(input);
      if (!checked.ok) return checked;
      const { patch, explanation } = checked.value;
      return { ok: true, run: (session, signal) => session.applyPatch(patch, { explanation, signal }) };
    }
    default:
      return invalidToolInput.noSuchTool(name, Object.values(TOOL_NAMES));
  }
}
