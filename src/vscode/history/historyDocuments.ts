/**
 * Read-only documents of past versions (`readgate-history:`), and the one way the extension shows a recorded
 * change of a file: VS Code's diff editor between its version before and after (an empty side for a created or
 * deleted file). Versions are decoded as the guard decodes the file (`textOfBytes`, with the editor's encoding
 * for the file when it has one); a binary version, or one the budget has dropped, is shown as a sentence that
 * says so instead of text. Never dirty, nothing to save.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { type ChangedFile, type ChangeRecord, type FileSystem, textOfBytes } from '../../core/index';
import { Disposable } from '../util/dispose';
import { guardPathToUri, uriToGuardPath } from '../util/paths';
import type { HistorySource } from './historySource';
import { HISTORY_SCHEME, parseVersionQuery, versionQuery } from './historyUris';
import { changeTitle, timeText } from './historyWords';

export class HistoryDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly history: HistorySource | undefined,
    private readonly files: Pick<FileSystem, 'codecFor'>,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseVersionQuery(uri.query);
    if (!ref) return '';
    if (ref.version === null || !this.history) return '';
    const bytes = await this.history.versionBytes(ref.version);
    if (!bytes) {
      return `(ReadGate no longer keeps this version: the change history's budget dropped it. Raise readgate.history.maxMegabytes or readgate.history.maxAgeDays to keep versions longer.)\n`;
    }
    const guardPath = fromHistoryUri(uri);
    const codec = guardPath ? await this.files.codecFor?.(guardPath).catch(() => undefined) : undefined;
    const text = await textOfBytes(bytes, codec);
    return text ?? `(A binary version of ${bytes.byteLength.toLocaleString('en-US')} bytes: not shown.)\n`;
  }

  /** The URI of one side of a file's change. */
  uriOf(record: ChangeRecord, file: ChangedFile, side: 'before' | 'after'): vscode.Uri {
    const target = guardPathToUri(side === 'before' && file.kind === 'rename' && file.from ? file.from : file.path);
    const version = side === 'before' ? file.before : file.after;
    return vscode.Uri.from({
      scheme: HISTORY_SCHEME,
      path: target.path,
      query: versionQuery({ version, changeId: record.id, side }),
      fragment: target.scheme === 'file' ? '' : target.toString(),
    });
  }

  /** Opens the diff editor on what `record` did to `file`; resolves once it is shown. */
  async showDiff(record: ChangeRecord, file: ChangedFile): Promise<void> {
    const title = `${path.posix.basename(file.path.replace(/\\/g, '/'))} (${changeTitle(record)}, ${timeText(record.time, Date.now())})`;
    await vscode.commands.executeCommand('vscode.diff', this.uriOf(record, file, 'before'), this.uriOf(record, file, 'after'), title, { preview: true });
  }
}

/** The guard path a history URI shows (a `file:` path, or the virtual workspace URI kept in its fragment). */
export function fromHistoryUri(uri: vscode.Uri): string | undefined {
  if (!uri.fragment) return vscode.Uri.file(uri.path).fsPath;
  try {
    return uriToGuardPath(vscode.Uri.parse(uri.fragment, true));
  } catch {
    return undefined;
  }
}
