/**
 * The walkthrough's commands: `ReadGate: Get Started` opens it, `ReadGate: Open a Sample Patch` shows one of
 * its sample patches (for the demo workspace's `src/inventory.ts`: `fresh` applies, `stale` is refused), and
 * `ReadGate: Propose a Sample Change` gives the review step an agent's change to review (sampleChange.ts), and
 * `ReadGate: Open Settings` opens ReadGate's settings where they count: in a remote window (code-server as `npm
 * start` serves it, SSH, WSL) the Remote tab, because the approval and path settings are machine-scoped and the
 * User tab of a remote window does not show them. When each step counts as done is walkthroughProgress.ts.
 */
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import { showDetails } from '../details/detailsDocuments';
import type { SessionLabels } from '../sessions/sessionLabels';
import { CommandIds } from './commandIds';
import { proposeSampleChange } from './sampleChange';

export const WALKTHROUGH_ID = 'readgate.readgate#readgate.gettingStarted';
export type SamplePatch = 'fresh' | 'stale';

export function samplePatchUri(extensionUri: vscode.Uri, sample: SamplePatch): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'walkthrough', `${sample === 'stale' ? 'stale' : 'fresh'}.patch`);
}

export async function samplePatchText(extensionUri: vscode.Uri, sample: SamplePatch): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(samplePatchUri(extensionUri, sample)));
}

export function registerWalkthrough(extensionUri: vscode.Uri, guard: Guard, labels: SessionLabels): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.proposeSampleChange, () => proposeSampleChange(guard, labels)),
    vscode.commands.registerCommand(CommandIds.openSettings, () =>
      vscode.env.remoteName ? vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: 'readgate' }) : vscode.commands.executeCommand('workbench.action.openSettings', 'readgate'),
    ),
    vscode.commands.registerCommand(CommandIds.getStarted, () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false)),
    vscode.commands.registerCommand(CommandIds.openSamplePatch, async (sample: SamplePatch = 'fresh') => {
      // Read-only and named as a sample: an untitled document was named "a/src/inventory.ts" after its first line.
      const document = await showDetails({ name: `ReadGate — sample patch (${sample}).diff`, content: await samplePatchText(extensionUri, sample), viewColumn: vscode.ViewColumn.Beside });
      return document.getText();
    }),
  );
}
