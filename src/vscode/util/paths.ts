/**
 * Turns what callers pass (a `Uri`, a `file:` URI string, or a path) into the path the guard takes.
 * Until the editor-aware file system lands, only `file:` URIs are supported; other schemes get a clear
 * refusal instead of being misread as paths.
 */
import * as vscode from 'vscode';
import type { Refusal } from '../../core/index';

export function toGuardPath(value: vscode.Uri | string | unknown): string | Refusal {
  if (value instanceof vscode.Uri) {
    if (value.scheme === 'file') return value.fsPath;
    return { ok: false, code: 'PATH_INVALID', message: `${value.toString()} uses the "${value.scheme}" scheme; ReadGate currently guards files on disk (file: URIs and paths) only.` };
  }
  if (typeof value === 'string' && /^file:\/\//i.test(value)) {
    try {
      return vscode.Uri.parse(value, true).fsPath;
    } catch {
      return { ok: false, code: 'PATH_INVALID', message: `${value} is not a valid file: URI. Pass an absolute path or a path relative to the workspace folder.` };
    }
  }
  return value as string;
}
