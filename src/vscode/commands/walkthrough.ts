/**
 * The walkthrough's commands: `ReadGate: Get Started` opens it, `ReadGate: Open a Sample Patch` shows one of
 * its sample patches (for the demo workspace's `src/inventory.ts`: `fresh` applies, `stale` is refused).
 */
import * as vscode from 'vscode';
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
      const document = await vscode.workspace.openTextDocument({ language: 'diff', content: await samplePatchText(extensionUri, sample) });
      await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return document.getText();
    }),
  );
}
