/** `readgate_edit`: one oldString → newString change, guarded. */
import * as vscode from 'vscode';
import { type EditInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded, shortName } from './toolResult';
import type { ToolSessions } from './toolSessions';

export class EditTool implements vscode.LanguageModelTool<EditInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Editing ${shortName(options.input?.filePath)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.sessions, TOOL_NAMES.edit, options, token);
  }
}
