/** `readgate_multiEdit`: changes across files, applied all together or not at all. */
import * as vscode from 'vscode';
import { type MultiEditInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded, shortName } from './toolResult';
import type { GuardedCalls } from './toolResult';

export class MultiEditTool implements vscode.LanguageModelTool<MultiEditInput> {
  constructor(private readonly calls: GuardedCalls) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<MultiEditInput>): vscode.PreparedToolInvocation {
    const files = Array.isArray(options.input?.edits) ? new Set(options.input.edits.map((edit) => edit?.filePath)).size : 0;
    return { invocationMessage: files === 1 ? `Editing ${shortName(options.input.edits[0]?.filePath)}` : `Editing ${files} files` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<MultiEditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.calls, TOOL_NAMES.multiEdit, options, token);
  }
}
