/** Registers every command; the returned Disposable unregisters them all. */
import * as vscode from 'vscode';
import type { Log } from '../log';
import { registerShowLog } from './showLog';

export function registerCommands(log: Log): vscode.Disposable {
  return vscode.Disposable.from(registerShowLog(log));
}
