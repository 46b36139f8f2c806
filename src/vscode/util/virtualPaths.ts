/**
 * Files of virtual workspaces (any URI scheme but `file:`) as paths the core can reason about. The core works
 * on absolute POSIX-like paths; a URI `scheme://authority/path` is given the path
 * `/.readgate-uri/<scheme>/<authority>/path` (where there are no inodes, a file is
 * its URI). The adapter's file system routes these paths to `workspace.fs`, and every text shown to callers is
 * translated back to URIs.
 */
import * as vscode from 'vscode';

export const VIRTUAL_ROOT = '/.readgate-uri';
const NO_AUTHORITY = '-';

export function toVirtualPath(uri: vscode.Uri): string {
  const authority = uri.authority ? encodeURIComponent(uri.authority) : NO_AUTHORITY;
  return `${VIRTUAL_ROOT}/${encodeURIComponent(uri.scheme)}/${authority}${uri.path.startsWith('/') ? uri.path : `/${uri.path}`}`.replace(/\/+$/, '') || '/';
}

export function isVirtualPath(path: string): boolean {
  return path === VIRTUAL_ROOT || path.startsWith(`${VIRTUAL_ROOT}/`);
}

export function fromVirtualPath(path: string): vscode.Uri | undefined {
  if (!isVirtualPath(path)) return undefined;
  const [scheme, authority, ...rest] = path.slice(VIRTUAL_ROOT.length + 1).split('/');
  if (!scheme || authority === undefined) return undefined;
  return vscode.Uri.from({
    scheme: decodeURIComponent(scheme),
    authority: authority === NO_AUTHORITY ? '' : decodeURIComponent(authority),
    path: `/${rest.join('/')}`,
  });
}

const VIRTUAL_IN_TEXT = /\/\.readgate-uri\/[^/\s'"`]+\/[^/\s'"`]+(?:\/[^\s'"`,;)]*)?/g;

/** Replaces virtual paths in a message or result with the URIs they stand for. */
export function showVirtualPaths(text: string): string {
  if (!text.includes(VIRTUAL_ROOT)) return text;
  return text.replace(VIRTUAL_IN_TEXT, (path) => fromVirtualPath(path)?.toString(true) ?? path);
}

/** A string that names a URI with a scheme other than a Windows drive letter (`c:\\`). */
export function looksLikeUri(value: string): boolean {
  return /^[a-zA-Z][\w+.-]+:/.test(value) && !/^[a-zA-Z]:[\\/]/.test(value);
}
