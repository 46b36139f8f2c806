/**
 * A guard that keeps its change history in a real temp folder (outside its root), with a recording logger, for
 * the tests of what the guard records and reverts.
 */
import { createHash } from 'crypto';
import * as path from 'path';
import type { GuardOptions } from '../../../src/core/index';
import { type Fixture, fixture } from '../helpers/guardFixture';
import { type LoggedLine, recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';

export interface HistoryFixture extends Fixture {
  historyDir: string;
  logger: ReturnType<typeof recordingLogger>;
}

/** `options.history` wins over the temp folder (e.g. to set a budget; give `dir: ''` to get the temp one). */
export function historyFixture(options: Partial<GuardOptions> = {}): HistoryFixture {
  const historyDir = path.join(makeTempDir('readgate-history-'), 'history');
  const logger = recordingLogger();
  const history = { ...options.history, dir: options.history?.dir || historyDir };
  const f = fixture({ logger, ...options, history });
  return { ...f, historyDir: history.dir, logger };
}

/** A version id as the history names content: the SHA-256 of the bytes. */
export const versionOf = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Warnings and errors the history logged. */
export const historyWarnings = (lines: readonly LoggedLine[]): LoggedLine[] => lines.filter((line) => (line.level === 'warn' || line.level === 'error') && line.message.startsWith('[history]'));
