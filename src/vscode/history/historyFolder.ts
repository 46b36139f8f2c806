/**
 * Where the change history is kept: the workspace's own storage (`context.storageUri`), so each workspace has
 * its own history and its changes survive a reload; in a window without a folder, the extension's global
 * storage. The history is written with Node's file system (folders 0700, files 0600), so only a storage
 * folder on this machine's disk will do; none: no history (the Agent Changes view says so).
 */
import * as path from 'path';
import type * as vscode from 'vscode';

export function historyFolder(context: Pick<vscode.ExtensionContext, 'storageUri' | 'globalStorageUri'>): string | undefined {
  const storage = [context.storageUri, context.globalStorageUri].find((uri) => uri?.scheme === 'file');
  return storage && path.join(storage.fsPath, 'history');
}
