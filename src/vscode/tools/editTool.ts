/** `readgate_edit`: one oldString → newString change, guarded. */
import * as vscode from 'vscode';
import { type EditInput, checkEditInput } from './toolInput';
import { refusalError, shortName, toToolResult, withAbortSignal } from './toolResult';
import type { ToolSessions } from './toolSessions';
import { toGuardPath } from '../util/paths';

export class EditTool implements vscode.LanguageModelTool<EditInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Editing ${shortName(options.input?.filePath)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = checkEditInput(options.input);
    if (!input.ok) throw refusalError(input);
    const path = toGuardPath(input.value.filePath);
    if (typeof path !== 'string') throw refusalError(path);
    const { oldString, newString, replaceAll, expectedVersion, explanation } = input.value;
    const edit = { oldString, newString, ...(replaceAll !== undefined ? { replaceAll } : {}) };
    return toToolResult(await this.sessions.run(options.toolInvocationToken, (session) => withAbortSignal(token, (signal) => session.edit(path, [edit], { expectedVersion, explanation, signal }))));
  }
}
