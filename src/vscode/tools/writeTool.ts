/** `readgate_write`: create a file, or replace one the session has fully seen. */
import * as vscode from 'vscode';
import { type WriteInput, checkWriteInput } from './toolInput';
import { refusalError, shortName, toToolResult, withAbortSignal } from './toolResult';
import type { ToolSessions } from './toolSessions';
import { toGuardPath } from '../util/paths';

export class WriteTool implements vscode.LanguageModelTool<WriteInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WriteInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Writing ${shortName(options.input?.filePath)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<WriteInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = checkWriteInput(options.input);
    if (!input.ok) throw refusalError(input);
    const path = toGuardPath(input.value.filePath);
    if (typeof path !== 'string') throw refusalError(path);
    const { content, expectedVersion, explanation } = input.value;
    return toToolResult(await this.sessions.run(options.toolInvocationToken, (session) => withAbortSignal(token, (signal) => session.write(path, content, { expectedVersion, explanation, signal }))));
  }
}
