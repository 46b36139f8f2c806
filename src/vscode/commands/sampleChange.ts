/**
 * `ReadGate: Propose a Sample Change` (the walkthrough's "Review every change" step): a sample agent reads the
 * demo workspace's `src/inventory.ts` and proposes a change of two hunks far apart, so there is something to
 * review: approve it, or reject one hunk and approve the other. It is an agent's change like any other (the
 * guard checks it against what the sample agent read, and `readgate.approval.mode` decides whether it waits), and
 * its session stays in the Sessions view with the lines it read, for the walkthrough's next step.
 */
import * as vscode from 'vscode';
import type { Guard, MutationResult } from '../../core/index';
import { SAMPLE_AGENT_SESSION } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import { uriToGuardPath } from '../util/paths';
import { keyForSampleChange } from './walkthroughProgress';

const SAMPLE_FILE = 'src/inventory.ts';
const MARK = 'negative quantity';

/** The change: one hunk in `add`, one in `needsReorder` (the sample patches change `restock` and `take`). */
const EDITS = [
  {
    oldString: '      throw new Error(`duplicate SKU ${item.sku}`);\n    }\n    this.items.set(item.sku, { ...item });',
    newString:
      '      throw new Error(`duplicate SKU ${item.sku}`);\n    }\n    if (item.quantity < 0) {\n      throw new Error(`' +
      MARK +
      ' for ${item.sku}`);\n    }\n    this.items.set(item.sku, { ...item });',
  },
  {
    oldString: '      .sort((a, b) => a.quantity - b.quantity);',
    newString: '      .sort((a, b) => a.quantity - b.quantity || a.sku.localeCompare(b.sku));',
  },
];

async function findSampleFile(): Promise<vscode.Uri | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, SAMPLE_FILE);
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

export async function proposeSampleChange(guard: Guard, labels: SessionLabels): Promise<MutationResult | undefined> {
  const uri = await findSampleFile();
  if (!uri) {
    void vscode.window.showErrorMessage(
      `The sample change is for the demo workspace's ${SAMPLE_FILE} (npm start opens it); no workspace folder has that file.`,
    );
    return undefined;
  }
  labels.set(SAMPLE_AGENT_SESSION, 'Sample agent (Get Started)');
  const session = guard.session(SAMPLE_AGENT_SESSION);
  const file = uriToGuardPath(uri);
  const read = await session.read(file, { force: true });
  if (!read.ok) {
    void vscode.window.showErrorMessage(`ReadGate: the sample agent could not read ${SAMPLE_FILE}: ${read.message}`);
    return undefined;
  }
  if (read.text?.includes(MARK)) {
    void vscode.window.showInformationMessage(`The sample change is already in ${SAMPLE_FILE}.`);
    return undefined;
  }
  const outcome = await session.multiEdit([{ path: file, edits: EDITS }], {
    explanation: 'Refuse a negative quantity when adding an item, and list the items to reorder in a stable order (by SKU when the stock is equal).',
  });
  const key = keyForSampleChange(outcome);
  if (key) void vscode.commands.executeCommand('setContext', key, true);
  if (outcome.ok) void vscode.window.showInformationMessage(`ReadGate applied the sample agent's change to ${SAMPLE_FILE}.`);
  else if (outcome.code === 'REJECTED_BY_USER') {
    void vscode.window.showInformationMessage("You rejected the sample agent's change: nothing was written, and the agent was told why.");
  } else void vscode.window.showErrorMessage(`ReadGate refused the sample agent's change (${outcome.code}): ${outcome.message.split('\n')[0]}`);
  return outcome;
}
