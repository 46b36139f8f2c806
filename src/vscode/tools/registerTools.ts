/** Registers the five language model tools; the returned Disposable unregisters them. */
import * as vscode from 'vscode';
import { ApplyPatchTool } from './applyPatchTool';
import { EditTool } from './editTool';
import { MultiEditTool } from './multiEditTool';
import { ReadTool } from './readTool';
import { ToolNames } from './toolNames';
import type { ToolSessions } from './toolSessions';
import { WriteTool } from './writeTool';

export function registerTools(sessions: ToolSessions): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(ToolNames.read, new ReadTool(sessions)),
    vscode.lm.registerTool(ToolNames.edit, new EditTool(sessions)),
    vscode.lm.registerTool(ToolNames.multiEdit, new MultiEditTool(sessions)),
    vscode.lm.registerTool(ToolNames.write, new WriteTool(sessions)),
    vscode.lm.registerTool(ToolNames.applyPatch, new ApplyPatchTool(sessions)),
  );
}
