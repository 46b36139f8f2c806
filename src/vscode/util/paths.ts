/**
 * Turns what callers pass (a `Uri`, a URI string, or a path) into the path the guard takes. `file:` URIs
 * become file system paths; other schemes (virtual workspaces) become the virtual paths of `virtualPaths.ts`.
 */
import * as vscode from 'vscode';
import type { Refusal } from '../../core/index';
import { fromVirtualPath, looksLikeUri, toVirtualPath } from './virtualPaths';

export function uriToGuardPath(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : toVirtualPath(uri);
}

export function toGuardPath(value: vscode.Uri | string | unknown): string | Refusal {
  if (value instanceof vscode.Uri) return uriToGuardPath(value);
  if (typeof value === 'string' && looksLikeUri(value)) {
    try {
      return uriToGuardPath(vscode.Uri.parse(value, true));
    } catch {
      return {
        ok: false,
        code: 'PATH_INVALID',
        message: `${value} is not a valid URI. Pass an absolute path, a path relative to the workspace folder, or a URI.`,
      };
    }
  }
  return value as string;
}

/** The URI a guard path stands for (the inverse of `uriToGuardPath`). */
export function guardPathToUri(path: string): vscode.Uri {
  return fromVirtualPath(path) ?? vscode.Uri.file(path);
}
