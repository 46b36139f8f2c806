/**
 * The extension's log: a `LogOutputChannel` named "ReadGate", so users pick the level in the Output view.
 * Created on the first line written (lazy), owned and disposed here. It is also the core's Logger port:
 * lines are decisions as data (ids, codes, versions, ranges), never file content or user text.
 */
import * as vscode from 'vscode';
import type { Logger } from '../core/index';
import { Disposable } from './util/dispose';

export const LOG_CHANNEL_NAME = 'ReadGate';

function withData(message: string, data: Record<string, unknown> | undefined): string {
  if (!data) return message;
  let text: string;
  try {
    text = JSON.stringify(data);
  } catch {
    text = '[unserializable data]';
  }
  return `${message} ${text}`;
}

export class Log extends Disposable implements Logger {
  private _channel: vscode.LogOutputChannel | undefined;

  private get channel(): vscode.LogOutputChannel {
    if (!this._channel) {
      this._channel = this._register(vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true }));
    }
    return this._channel;
  }

  trace(message: string, data?: Record<string, unknown>): void {
    this.channel.trace(withData(message, data));
  }

  debug(message: string, data?: Record<string, unknown>): void {
    this.channel.debug(withData(message, data));
  }

  info(message: string, data?: Record<string, unknown>): void {
    this.channel.info(withData(message, data));
  }

  warn(message: string, data?: Record<string, unknown>): void {
    this.channel.warn(withData(message, data));
  }

  error(message: string | Error, data?: Record<string, unknown>): void {
    this.channel.error(typeof message === 'string' ? withData(message, data) : message);
  }

  /** Reveals the channel without taking focus from the editor the user is typing in. */
  show(): void {
    this.channel.show(true);
  }
}
