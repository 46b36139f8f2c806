/**
 * Which request a message was, when the message itself cannot be read (too long to keep, or not JSON), so
 * the error answers that request and the client does not wait for it until its timeout. Only the first and
 * last bytes are looked at, where clients put the id: the Python SDK writes `{"jsonrpc":"2.0","id":…` first,
 * the TypeScript SDK `…,"jsonrpc":"2.0","id":…}` last. An id is taken only as a member of the outermost
 * object: at its very start, or as its very last member (a nested object's last member is followed by two
 * closing braces; quotes inside strings are escaped). Anything else is no id: the error then names none.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
const FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}\s*[,}]`);
const LAST = new RegExp(String.raw`[{,]\s*${ID}\s*\}\s*$`);

export function requestIdOf(head: string, tail: string): RequestId | undefined {
  const match = FIRST.exec(head) ?? LAST.exec(tail);
  if (!match) return undefined;
  try {
    const id: unknown = JSON.parse(match[1]);
    return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
  } catch {
    return undefined;
  }
}
