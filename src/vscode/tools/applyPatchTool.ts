/** `readgate_applyPatch`: an agent's patch in any of the three formats, as one guarded, reviewed change. */
import * as vscode from 'vscode';
import { type ApplyPatchInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded } from './toolResult';
import type { ToolSessions } from './toolSessions';

export class ApplyPatchTool implements vscode.LanguageModelTool<ApplyPatchInput> {
  constructor(private readonly sessions: ToolSessions) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Applying a patch' };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ApplyPatchInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.sessions, TOOL_NAMES.applyPatch, options, token);
  }
}
