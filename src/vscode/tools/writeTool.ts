/** `readgate_write`: create a file, or replace one the session has fully seen. */
import * as vscode from 'vscode';
import { type WriteInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded, shortName } from './toolResult';
import type { GuardedCalls } from './toolResult';

export class WriteTool implements vscode.LanguageModelTool<WriteInput> {
  constructor(private readonly calls: GuardedCalls) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WriteInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Writing ${shortName(options.input?.filePath)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<WriteInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.calls, TOOL_NAMES.write, options, token);
  }
}
