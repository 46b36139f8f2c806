/** Registers the five language model tools; the returned Disposable unregisters them. */
import * as vscode from 'vscode';
import { TOOL_NAMES } from '../../core/index';
import { ApplyPatchTool } from './applyPatchTool';
import { EditTool } from './editTool';
import { MultiEditTool } from './multiEditTool';
import { ReadTool } from './readTool';
import type { ToolSessions } from './toolSessions';
import { WriteTool } from './writeTool';

export function registerTools(sessions: ToolSessions): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(TOOL_NAMES.read, new ReadTool(sessions)),
    vscode.lm.registerTool(TOOL_NAMES.edit, new EditTool(sessions)),
    vscode.lm.registerTool(TOOL_NAMES.multiEdit, new MultiEditTool(sessions)),
    vscode.lm.registerTool(TOOL_NAMES.write, new WriteTool(sessions)),
    vscode.lm.registerTool(TOOL_NAMES.applyPatch, new ApplyPatchTool(sessions)),
  );
}
