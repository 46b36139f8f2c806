/**
 * A hook command for the agent tests: appends one JSON line to the file named by its first argument with the
 * hook's input (its stdin, parsed), the time (ms since the epoch), the label given as its second argument and
 * the ReadGate home it was given (READGATE_HOME), then exits 0 printing nothing.
 * Run as `node hookRecorder.js <log file> [label]`.
 */
import * as fs from 'fs';

export interface HookRecord {
  label: string;
  time: number;
  readgateHome: string | null;
  input: Record<string, unknown>;
}

export function readHookLog(file: string): HookRecord[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as HookRecord);
}

if (require.main === module) {
  const [file, label = ''] = process.argv.slice(2);
  const chunks: Buffer[] = [];
  process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
  process.stdin.on('end', () => {
    let input: unknown;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      input = { unparsed: Buffer.concat(chunks).toString('utf8') };
    }
    const record: HookRecord = { label, time: Date.now(), readgateHome: process.env.READGATE_HOME ?? null, input: input as Record<string, unknown> };
    fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
  });
}
