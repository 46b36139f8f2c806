/** `readgate_edit`: one oldString → newString change, guarded. */
import * as vscode from 'vscode';
import { type EditInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded, shortName } from './toolResult';
import type { GuardedCalls } from './toolResult';

export class EditTool implements vscode.LanguageModelTool<EditInput> {
  constructor(private readonly calls: GuardedCalls) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Editing ${shortName(options.input?.filePath)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.calls, TOOL_NAMES.edit, options, token);
  }
}
