/**
 * Read-only documents of what a pending change would replace and produce (`readgate-proposal:` URIs), so the
 * user can compare them in VS Code's own diff editor. Served from memory; never dirty, nothing to save.
 */
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';

export const PROPOSAL_SCHEME = 'readgate-proposal';

export class Proposals extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this));
  }

  /** Registers one side of a proposal; returns its URI. */
  put(requestId: string, side: 'before' | 'after', path: string, text: string): vscode.Uri {
    const base = path.split(/[\\/]/).pop() ?? 'file';
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${requestId}/${side}/${base}`, query: encodeURIComponent(path) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  /** Forgets a request's documents once it is decided. */
  forget(requestId: string): void {
    for (const key of [...this.texts.keys()]) if (vscode.Uri.parse(key).path.startsWith(`/${requestId}/`)) this.texts.delete(key);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}
