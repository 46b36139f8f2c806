/** A guard over a fresh real temp directory, with small helpers for writing and reading its files. */
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { Guard, GuardOptions, GuardSession, MutationResult, ReadResult } from '../../../src/core/index';
import { makeTempDir } from './tempDir';

export interface Fixture {
  root: string;
  guard: Guard;
  session: GuardSession;
  file(name: string, content: string | Buffer): string;
  text(name: string): string;
}

export function fixture(options: Partial<GuardOptions> = {}): Fixture {
  const root = makeTempDir('readgate-guard-');
  const guard = createGuard({ roots: [root], ...options });
  return {
    root,
    guard,
    session: guard.session('test'),
    file(name, content) {
      const full = path.join(root, name);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
      return full;
    },
    text(name) {
      return fs.readFileSync(path.join(root, name), 'utf8');
    },
  };
}

export const numbered = (count: number, prefix = 'line'): string => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';

export function codeOf(result: ReadResult | MutationResult): string {
  return result.ok ? 'ok' : result.code;
}

export function assertOk<T extends { ok: boolean }>(result: T): asserts result is Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
}
