/**
 * A command knows its id: each one is a `Command` (its class also holds the id as a static field, for tree items
 * and links), and one `CommandManager` registers them all and owns their registrations.
 */
import * as vscode from 'vscode';
import { disposeAll } from '../util/dispose';

export interface Command {
  readonly id: string;
  execute(...args: unknown[]): unknown;
}

export class CommandManager implements vscode.Disposable {
  private readonly registered = new Map<string, vscode.Disposable>();

  /** Registers `command` under its id; an id registered twice is a wiring mistake, so it throws. */
  register<T extends Command>(command: T): T {
    if (this.registered.has(command.id)) throw new Error(`the command ${command.id} is registered twice`);
    this.registered.set(command.id, vscode.commands.registerCommand(command.id, command.execute, command));
    return command;
  }

  dispose(): void {
    const registrations = [...this.registered.values()];
    this.registered.clear();
    disposeAll(registrations);
  }
}
