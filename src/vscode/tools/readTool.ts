/** `readgate_read`: a guarded read through the caller's session. */
import * as vscode from 'vscode';
import { type ReadInput, checkReadInput } from './toolInput';
import { refusalError, shortName, toToolResult, withAbortSignal } from './toolResult';
import type { ToolSessions } from './toolSessions';
import { toGuardPath } from '../util/paths';

export class ReadTool implements vscode.LanguageModelTool<ReadInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    const { filePath, offset, limit } = options.input ?? ({} as ReadInput);
    const range = offset || limit ? ` (lines ${offset ?? 1}${limit ? `–${(offset ?? 1) + limit - 1}` : '…'})` : '';
    return { invocationMessage: `Reading ${shortName(filePath)}${range}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const input = checkReadInput(options.input);
    if (!input.ok) throw refusalError(input);
    const path = toGuardPath(input.value.filePath);
    if (typeof path !== 'string') throw refusalError(path);
    const { offset, limit, force } = input.value;
    return toToolResult(await this.sessions.run(options.toolInvocationToken, (session) => withAbortSignal(token, (signal) => session.read(path, { offset, limit, force, signal }))));
  }
}
