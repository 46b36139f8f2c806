/** Registers the five language model tools; the returned Disposable unregisters them. */
import * as vscode from 'vscode';
import { TOOL_NAMES } from '../../core/index';
import { ApplyPatchTool } from './applyPatchTool';
import { EditTool } from './editTool';
import { MultiEditTool } from './multiEditTool';
import { ReadTool } from './readTool';
import type { GuardedCalls } from './toolResult';
import { WriteTool } from './writeTool';

export function registerTools(calls: GuardedCalls): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(TOOL_NAMES.read, new ReadTool(calls)),
    vscode.lm.registerTool(TOOL_NAMES.edit, new EditTool(calls)),
    vscode.lm.registerTool(TOOL_NAMES.multiEdit, new MultiEditTool(calls)),
    vscode.lm.registerTool(TOOL_NAMES.write, new WriteTool(calls)),
    vscode.lm.registerTool(TOOL_NAMES.applyPatch, new ApplyPatchTool(calls)),
  );
}
