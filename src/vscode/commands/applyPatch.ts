/**
 * `ReadGate: Apply Patch…`: a change produced anywhere (a web chat, a code review), as a unified diff or
 * search/replace blocks, applied through the guard like an agent's change: placed by its exact context,
 * refused with the differing lines when the file moved on, reviewed in the panel, all files or none, into
 * open editors undoably. The patch comes from the clipboard or an editor (untitled ones first); "Paste a
 * patch" opens an empty editor for it.
 */
import { COMMAND_IDS } from '../commandIds';
import { randomUUID } from 'crypto';
import * as path from 'path';
import * as vscode from 'vscode';
import { applyPatch, type FilePatch, type FileSystem, type Guard, parsePatch, textOfBytes } from '../../core/index';
import { DETAILS_SCHEME, showDetails } from '../details/detailsDocuments';
import type { SessionLabels } from '../sessions/sessionLabels';
import { USER_PREFIX } from '../sessions/sessionKeys';
import { uriToGuardPath } from '../util/paths';
import { showVirtualPaths } from '../util/virtualPaths';
import type { Command } from './commandManager';
import { type SamplePatch, samplePatchText } from './walkthrough';
import { keyForSamplePatch } from './walkthroughProgress';

/** How tests and the walkthrough call it: the patch text (or where to take it) instead of asking. */
export interface ApplyPatchArgs {
  text?: string;
  source?: 'clipboard' | 'editor';
  /** One of the walkthrough's sample patches. */
  sample?: SamplePatch;
}

export type ApplyPatchOutcome = { ok: true; files: number } | { ok: false; code: string; message: string } | undefined;

interface Source {
  label: string;
  name: string;
  text: string;
}

const REJECTED_IN_REVIEW = 'The patch was not applied: you rejected it in review.';
const PASTE_HINT = 'Paste a unified diff, search/replace blocks or an apply_patch patch here, then run "ReadGate: Apply Patch…" again.';

async function candidates(): Promise<Source[]> {
  const sources: Source[] = [];
  const clipboard = await vscode.env.clipboard.readText();
  if (clipboard.trim()) sources.push({ label: '$(clippy) From the clipboard', name: 'the clipboard', text: clipboard });
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.getText().trim()) {
    const { uri } = editor.document;
    const name = editor.document.isUntitled ? uri.path : uri.scheme === DETAILS_SCHEME ? path.posix.basename(uri.path) : vscode.workspace.asRelativePath(uri);
    sources.push({ label: `$(file) From the editor ${name}`, name: `the editor ${name}`, text: editor.document.getText() });
  }
  return sources;
}

function summary(files: readonly FilePatch[]): string {
  const names = files.map((file) => file.path);
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** Which source to apply: the one named, else a pick that lists each source as a patch or says why it is not one. */
async function chooseSource(args: ApplyPatchArgs | undefined, extensionUri: vscode.Uri): Promise<Source | 'paste' | undefined> {
  if (typeof args?.text === 'string') return { label: '', name: 'the given text', text: args.text };
  if (args?.sample) return { label: '', name: `the ${args.sample} sample patch`, text: await samplePatchText(extensionUri, args.sample) };
  const sources = await candidates();
  if (args?.source) return sources.find((source) => source.name.startsWith(args.source === 'clipboard' ? 'the clipboard' : 'the editor'));
  type Item = vscode.QuickPickItem & { source?: Source; paste?: true };
  const items: Item[] = sources.map((source) => {
    const parsed = parsePatch(source.text);
    return parsed.ok
      ? { label: source.label, description: `${parsed.files.length} file${parsed.files.length === 1 ? '' : 's'}: ${summary(parsed.files)}`, source }
      : { label: source.label, description: 'not a patch', detail: parsed.message, source };
  });
  items.sort((a, b) => Number(b.description !== 'not a patch') - Number(a.description !== 'not a patch'));
  items.push({ label: '$(edit) Paste a patch…', description: 'opens an empty editor to paste it into', paste: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'ReadGate: Apply Patch',
    placeHolder: 'Which patch? A unified diff, search/replace blocks or an apply_patch patch',
    matchOnDescription: true,
  });
  return picked?.paste ? 'paste' : picked?.source;
}

/** Paths in a patch are relative to the workspace folder that has its first existing file (else the first folder). */
async function baseFolder(files: readonly FilePatch[]): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    for (const file of files) {
      if (path.isAbsolute(file.path)) continue;
      try {
        await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, file.path));
        return folder.uri;
      } catch {
        // not in this folder
      }
    }
  }
  return folders[0]?.uri;
}

/**
 * A file's text exactly as the guard will read it, so the patch is placed in the text the guard edits: through the
 * editor file system (unsaved editor text counts, a clean editor whose text differs from disk does not) and its
 * encoding (a Latin-1, Windows-1252 or UTF-16 file is not misread as UTF-8). Undefined when absent or binary.
 */
function textReader(files: FileSystem): (guardPath: string) => Promise<string | undefined> {
  return async (guardPath) => {
    let bytes: Uint8Array;
    try {
      bytes = await files.readFile(guardPath);
    } catch {
      return undefined;
    }
    const codec = await files.codecFor?.(guardPath).catch(() => undefined);
    return textOfBytes(bytes, codec);
  };
}

/** The names of a patch's files for a title: "inventory.ts", "a.ts, b.ts", "a.ts and 3 more". */
function fileNames(files: readonly FilePatch[]): string {
  const names = files.map((file) => path.posix.basename(file.path.replace(/\\/g, '/')));
  return names.length <= 2 ? names.join(', ') : `${names[0]} and ${names.length - 1} more`;
}

/** The refusal as an error message; its details, on request, as a read-only document named `title`. */
async function showRefusal(code: string, message: string, title: string): Promise<void> {
  const text = showVirtualPaths(message);
  const choice = await vscode.window.showErrorMessage(`ReadGate did not apply the patch (${code}): ${text.split('\n')[0]}`, 'Show Details');
  if (choice === 'Show Details') {
    await showDetails({
      name: `ReadGate — ${title}.md`,
      content: `# The patch was not applied\n\n**${code}**\n\n\`\`\`\n${text}\n\`\`\`\n\nNo file was changed.\n`,
    });
  }
}

/** The patch's text and name, or undefined when there is none yet (the user is asked to copy or paste one). */
async function patchSource(
  args: ApplyPatchArgs | undefined,
  extensionUri: vscode.Uri,
): Promise<Exclude<Awaited<ReturnType<typeof chooseSource>>, 'paste' | undefined> | undefined> {
  const source = await chooseSource(args, extensionUri);
  if (!source) {
    if (args?.source) {
      void vscode.window.showErrorMessage(
        `ReadGate: ${args.source === 'clipboard' ? 'the clipboard is empty' : 'no editor with text is active'}; copy or open a patch first.`,
      );
    }
    return undefined;
  }
  if (source === 'paste') {
    const document = await vscode.workspace.openTextDocument({ language: 'diff', content: '' });
    await vscode.window.showTextDocument(document);
    void vscode.window.showInformationMessage(PASTE_HINT);
    return undefined;
  }
  return source;
}

export async function runApplyPatch(
  guard: Guard,
  files: FileSystem,
  labels: SessionLabels,
  extensionUri: vscode.Uri,
  args?: ApplyPatchArgs,
): Promise<ApplyPatchOutcome> {
  const source = await patchSource(args, extensionUri);
  if (!source) return undefined;
  const parsed = parsePatch(source.text);
  if (!parsed.ok) {
    void showRefusal(parsed.code, `${source.name} does not hold a patch. ${parsed.message}`, `not a patch (${source.name})`);
    return { ok: false, code: parsed.code, message: parsed.message };
  }
  const base = await baseFolder(parsed.files);
  const resolve = (file: string): string => (path.isAbsolute(file) || !base ? file : uriToGuardPath(vscode.Uri.joinPath(base, file)));
  const id = `${USER_PREFIX}apply-patch:${randomUUID()}`;
  labels.set(id, `Apply Patch (${source.name})`);
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `ReadGate: applying the patch from ${source.name}`, cancellable: true },
      (_, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return applyPatch(guard.session(id), parsed.files, {
          readText: textReader(files),
          resolve,
          explanation: `Apply the patch from ${source.name} (${parsed.format === 'unified' ? 'unified diff' : parsed.format === 'search-replace' ? 'search/replace blocks' : 'apply_patch'}): ${summary(parsed.files)}`,
          signal: controller.signal,
        });
      },
    );
    if (!result.ok) {
      // The user's own "no" in review is a cancel, not a failure to explain.
      if (result.code === 'REJECTED_BY_USER') void vscode.window.showInformationMessage(REJECTED_IN_REVIEW);
      else void showRefusal(result.code, result.message, `patch refused (${fileNames(parsed.files)})`);
      return { ok: false, code: result.code, message: showVirtualPaths(result.message) };
    }
    void vscode.window.showInformationMessage(
      `ReadGate applied the patch to ${result.files.length === 1 ? path.basename(result.files[0].path) : `${result.files.length} files`}.`,
    );
    return { ok: true, files: result.files.length };
  } finally {
    guard.dropSession(id);
    labels.delete(id);
  }
}

export class ApplyPatchCommand implements Command {
  static readonly id = COMMAND_IDS.applyPatch;
  readonly id = ApplyPatchCommand.id;

  constructor(
    private readonly guard: Guard,
    private readonly files: FileSystem,
    private readonly labels: SessionLabels,
    private readonly extensionUri: vscode.Uri,
  ) {}

  async execute(args?: ApplyPatchArgs): Promise<ApplyPatchOutcome> {
    const outcome = await runApplyPatch(this.guard, this.files, this.labels, this.extensionUri, args);
    // A walkthrough step is done when its sample did what the step shows (walkthroughProgress.ts).
    const key = args?.sample ? keyForSamplePatch(args.sample, outcome) : undefined;
    if (key) await vscode.commands.executeCommand('setContext', key, true);
    return outcome;
  }
}
