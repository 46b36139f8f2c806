/** `readgate_applyPatch`: an agent's patch in any of the three formats, as one guarded, reviewed change. */
import * as vscode from 'vscode';
import { type ApplyPatchInput, TOOL_NAMES } from '../../core/index';
import { invokeGuarded } from './toolResult';
import type { GuardedCalls } from './toolResult';

export class ApplyPatchTool implements vscode.LanguageModelTool<ApplyPatchInput> {
  constructor(private readonly calls: GuardedCalls) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Applying a patch' };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ApplyPatchInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return invokeGuarded(this.calls, TOOL_NAMES.applyPatch, options, token);
  }
}
