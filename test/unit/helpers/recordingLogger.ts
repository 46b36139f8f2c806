/** A Logger port that keeps every line, for tests that assert what was logged (and that no content was). */
import type { Logger } from '../../../src/core/index';

export interface LoggedLine {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  message: string;
  data?: Record<string, unknown>;
}

export function recordingLogger(): Logger & { lines: LoggedLine[]; warnings(): LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine['level']) => (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, ...(data ? { data } : {}) });
  return {
    lines,
    warnings: () => lines.filter((line) => line.level === 'warn' || line.level === 'error'),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}
