/**
 * The walkthrough's commands: `ReadGate: Get Started` opens it, `ReadGate: Open a Sample Patch` shows one of
 * its sample patches (for the demo workspace's `src/inventory.ts`: `fresh` applies, `stale` is refused), and
 * `ReadGate: Propose a Sample Change` gives the review step an agent's change to review (sampleChange.ts), and
 * `ReadGate: Open Settings` opens ReadGate's settings where they count: in a remote window (code-server as `npm
 * start` serves it, SSH, WSL) the Remote tab, because the approval and path settings are machine-scoped and the
 * User tab of a remote window does not show them. When each step counts as done is walkthroughProgress.ts.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import type { Guard, MutationResult } from '../../core/index';
import { showDetails } from '../details/detailsDocuments';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { Command } from './commandManager';
import { proposeSampleChange } from './sampleChange';

export const WALKTHROUGH_ID = 'readgate.readgate#readgate.gettingStarted';
export type SamplePatch = 'fresh' | 'stale';

export function samplePatchUri(extensionUri: vscode.Uri, sample: SamplePatch): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'media', 'walkthrough', `${sample === 'stale' ? 'stale' : 'fresh'}.patch`);
}

export async function samplePatchText(extensionUri: vscode.Uri, sample: SamplePatch): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(samplePatchUri(extensionUri, sample)));
}

export class ProposeSampleChangeCommand implements Command {
  static readonly id = COMMAND_IDS.proposeSampleChange;
  readonly id = ProposeSampleChangeCommand.id;

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
  ) {}

  execute(): Promise<MutationResult | undefined> {
    return proposeSampleChange(this.guard, this.labels);
  }
}

export class OpenSettingsCommand implements Command {
  static readonly id = COMMAND_IDS.openSettings;
  readonly id = OpenSettingsCommand.id;

  execute(): Thenable<unknown> {
    return vscode.env.remoteName
      ? vscode.commands.executeCommand('workbench.action.openRemoteSettings', { query: 'readgate' })
      : vscode.commands.executeCommand('workbench.action.openSettings', 'readgate');
  }
}

export class GetStartedCommand implements Command {
  static readonly id = COMMAND_IDS.getStarted;
  readonly id = GetStartedCommand.id;

  execute(): Thenable<unknown> {
    return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  }
}

export class OpenSamplePatchCommand implements Command {
  static readonly id = COMMAND_IDS.openSamplePatch;
  readonly id = OpenSamplePatchCommand.id;

  constructor(private readonly extensionUri: vscode.Uri) {}

  async execute(sample: SamplePatch = 'fresh'): Promise<string> {
    // Read-only and named as a sample: an untitled document was named "a/src/inventory.ts" after its first line.
    const document = await showDetails({
      name: `ReadGate — sample patch (${sample}).diff`,
      content: await samplePatchText(this.extensionUri, sample),
      viewColumn: vscode.ViewColumn.Beside,
    });
    return document.getText();
  }
}
