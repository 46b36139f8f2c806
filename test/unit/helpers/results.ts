/** Assertions on guard results that print the whole result when they fail. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ErrorCode, MutationResult, ReadResult, Refusal } from '../../../src/core/index';

type Result = ReadResult | MutationResult;

/** Asserts a refusal with `code` whose message mentions each of `mentions`; returns the message. */
export function refused(result: Result, code: ErrorCode, ...mentions: string[]): string {
  assert.strictEqual(result.ok, false, `expected ${code}, got ${JSON.stringify(result).slice(0, 600)}`);
  const refusal = result as Refusal;
  assert.strictEqual(refusal.code, code, refusal.message);
  for (const mention of mentions) assert.ok(refusal.message.includes(mention), `message lacks ${JSON.stringify(mention)}:\n${refusal.message}`);
  return refusal.message;
}

export function ok<T extends Result>(result: T): Extract<T, { ok: true }> {
  assert.ok(result.ok, `expected success, got ${JSON.stringify(result).slice(0, 600)}`);
  return result as Extract<T, { ok: true }>;
}

export function lines(text: string): string[] {
  return text.split('\n');
}

/** Writes a file, creating its folder. */
export function put(file: string, content: string | Uint8Array): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}
