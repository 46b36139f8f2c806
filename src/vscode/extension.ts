/**
 * Entry point: wires the feature owners, hands them to `context.subscriptions`, returns the API.
 * No logic lives here.
 */
import * as vscode from 'vscode';
import { createApi, type ReadGateApi } from './api';
import { registerCommands } from './commands';
import { Log } from './log';

export function activate(context: vscode.ExtensionContext): ReadGateApi {
  const log = new Log();
  context.subscriptions.push(log, registerCommands(log));
  log.info(`ReadGate ${String(context.extension.packageJSON.version)} activated (VS Code ${vscode.version})`);
  return createApi();
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
