/**
 * Read-only documents for text ReadGate shows the user to read (a refused patch's details, a walkthrough
 * sample patch), under the `readgate-details:` scheme, each with a name that says what it is:
 * "ReadGate — patch refused (inventory.ts).md". They were untitled documents: dirty (closing one asked to save
 * it), and named by VS Code after their first line, so a sample patch was "a/src/inventory.ts" and Quick Open
 * offered it before the real file. Served from memory, like the review panel's proposals; the most recent
 * MAX_KEPT texts are kept, so a document closed and reopened from history still shows its text.
 *
 * Opened through an internal command (SHOW_DETAILS_COMMAND, not contributed to the palette), so the commands
 * that show details need no reference to this owner.
 */
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';

export const DETAILS_SCHEME = 'readgate-details';
export const SHOW_DETAILS_COMMAND = 'readgate.showDetails';

const MAX_KEPT = 20;

export interface DetailsRequest {
  /** The document's name; its extension gives the language ("….md", "….diff"). */
  name: string;
  content: string;
  /** Default: the active editor group. */
  viewColumn?: vscode.ViewColumn;
}

/** Shows `request` as a read-only document and resolves with it (the command's result). */
export function showDetails(request: DetailsRequest): Thenable<vscode.TextDocument> {
  return vscode.commands.executeCommand<vscode.TextDocument>(SHOW_DETAILS_COMMAND, request);
}

export class DetailsDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private opened = 0;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, this));
    this._register(vscode.commands.registerCommand(SHOW_DETAILS_COMMAND, (request: DetailsRequest) => this.show(request)));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  async show(request: DetailsRequest): Promise<vscode.TextDocument> {
    // Each showing is a document of its own (the query), so an older one still open keeps its own text.
    const name = request.name.replace(/[\\/]/g, '_');
    const uri = vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name}`, query: String(++this.opened) });
    this.texts.set(uri.toString(), request.content);
    while (this.texts.size > MAX_KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true, ...(request.viewColumn !== undefined ? { viewColumn: request.viewColumn } : {}) });
    return document;
  }
}
