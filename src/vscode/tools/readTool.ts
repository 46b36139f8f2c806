/** `readgate_read`: a guarded read through the caller's session. */
import * as vscode from 'vscode';
import { type ReadInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded, shortName } from './toolResult';
import type { GuardedCalls } from './toolResult';

export class ReadTool implements vscode.LanguageModelTool<ReadInput> {
  constructor(private readonly calls: GuardedCalls) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    const { filePath, offset, limit } = options.input ?? ({} as ReadInput);
    this.calls.sessions.readAhead(filePath);
    const range = offset || limit ? ` (lines ${offset ?? 1}${limit ? `–${(offset ?? 1) + limit - 1}` : '…'})` : '';
    return { invocationMessage: `Reading ${shortName(filePath)}${range}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.calls, TOOL_NAMES.read, options, token);
  }
}
