/** `readgate_multiEdit`: changes across files, applied all together or not at all. */
import * as vscode from 'vscode';
import type { MultiEditChange } from '../../core/index';
import { type MultiEditInput, checkMultiEditInput, groupByFile } from './toolInput';
import { refusalError, shortName, toToolResult, withAbortSignal } from './toolResult';
import type { ToolSessions } from './toolSessions';
import { toGuardPath } from '../util/paths';

export class MultiEditTool implements vscode.LanguageModelTool<MultiEditInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<MultiEditInput>): vscode.PreparedToolInvocation {
    const files = Array.isArray(options.input?.edits) ? new Set(options.input.edits.map((edit) => edit?.filePath)).size : 0;
    return { invocationMessage: files === 1 ? `Editing ${shortName(options.input.edits[0]?.filePath)}` : `Editing ${files} files` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<MultiEditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = checkMultiEditInput(options.input);
    if (!input.ok) throw refusalError(input);
    const groups = groupByFile(input.value.edits);
    if (!Array.isArray(groups)) throw refusalError(groups);
    const changes: MultiEditChange[] = [];
    for (const group of groups) {
      const path = toGuardPath(group.path);
      if (typeof path !== 'string') throw refusalError(path);
      changes.push({ ...group, path });
    }
    return toToolResult(await this.sessions.run(options.toolInvocationToken, (session) => withAbortSignal(token, (signal) => session.multiEdit(changes, { explanation: input.value.explanation, signal }))));
  }
}
