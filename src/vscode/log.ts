/**
 * The extension's log: a `LogOutputChannel` named "ReadGate", so users pick the level in the Output view.
 * Created on the first line written (lazy), owned and disposed here. Lines are decisions as data (ids,
 * codes, versions, ranges), never file content or user text.
 */
import * as vscode from 'vscode';
import { Disposable } from './util/dispose';

export const LOG_CHANNEL_NAME = 'ReadGate';

export class Log extends Disposable {
  private _channel: vscode.LogOutputChannel | undefined;

  private get channel(): vscode.LogOutputChannel {
    if (!this._channel) {
      this._channel = this._register(vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true }));
    }
    return this._channel;
  }

  trace(message: string): void {
    this.channel.trace(message);
  }

  debug(message: string): void {
    this.channel.debug(message);
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string | Error): void {
    this.channel.error(message);
  }

  /** Reveals the channel without taking focus from the editor the user is typing in. */
  show(): void {
    this.channel.show(true);
  }
}
