/**
 * The walkthrough's commands: `ReadGate: Get Started` opens it, `ReadGate: Open a Sample Patch` shows one of
 * its sample patches (for the demo workspace's `src/inventory.ts`: `fresh` applies, `stale` is refused).
 */
import * as vscode from 'vscode';
import { showDetails } from '../details/detailsDocuments';
import { CommandIds } from './commandIds';

export const WALKTHROUGH_ID = 'readgate.readgate#readgate.gettingStarted';
export type SamplePatch = 'fresh' | 'stale';

export function samplePatchUri(extensionUri: vscode.Uri, sample: SamplePatch): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'walkthrough', `${sample === 'stale' ? 'stale' : 'fresh'}.patch`);
}

export async function samplePatchText(extensionUri: vscode.Uri, sample: SamplePatch): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(samplePatchUri(extensionUri, sample)));
}

export function registerWalkthrough(extensionUri: vscode.Uri): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.getStarted, () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false)),
    vscode.commands.registerCommand(CommandIds.openSamplePatch, async (sample: SamplePatch = 'fresh') => {
      // Read-only and named as a sample: an untitled document was named "a/src/inventory.ts" after its first line.
      const document = await showDetails({ name: `ReadGate — sample patch (${sample}).diff`, content: await samplePatchText(extensionUri, sample), viewColumn: vscode.ViewColumn.Beside });
      return document.getText();
    }),
  );
}
