/** What the Agent Changes tests and the docs pictures share: the view's nodes and items, and an agent's edits through the API. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, type ApiSession, workspaceRoot } from './helpers';
import type { DrawnItem } from '../../src/vscode/testing/testHooks';

export interface ChangeNode {
  kind: 'session' | 'change' | 'file';
  record?: { id: string; sessionId: string; revertOf?: string; files: { path: string }[] };
  file?: { path: string };
  group?: { sessionId: string };
}

export const drawn = async (options?: { refresh: boolean }): Promise<DrawnItem[]> => (await vscode.commands.executeCommand<DrawnItem[]>('readgate._test.agentChanges', options)) ?? [];
export const nodes = async (): Promise<ChangeNode[]> => (await vscode.commands.executeCommand<ChangeNode[]>('readgate._test.agentChangeNodes')) ?? [];

/** The view's node of the change `sessionId` made, or of its file `file`. */
export async function nodeOf(kind: 'change' | 'file' | 'session', sessionId: string, file?: string): Promise<ChangeNode> {
  return harness.waitFor(`the ${kind} node of ${sessionId}`, async () =>
    (await nodes()).find((node) => node.kind === kind && (node.record?.sessionId ?? node.group?.sessionId) === sessionId && (file === undefined || node.file?.path === file)),
  );
}

/** A file with a name people recognise, for the screenshots (`<folder>/src/<name>` in the workspace). */
export function namedFile(name: string, content: string, folder = `history-${process.pid}`): string {
  const file = path.join(workspaceRoot(), folder, 'src', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/** An agent session of the extension API that reads the file and changes it. */
export async function agentEdit(label: string, file: string, edits: { oldString: string; newString: string }[], explanation: string, session?: ApiSession): Promise<ApiSession> {
  const agent = session ?? (await api()).openSession({ label });
  await agent.read(file);
  const result = await agent.edit(file, edits, { explanation });
  assert.strictEqual(result.ok, true, result.message);
  return agent;
}

export async function activeDiff(): Promise<vscode.TabInputTextDiff> {
  return harness.waitFor('a diff editor', () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputTextDiff ? input : undefined;
  });
}
