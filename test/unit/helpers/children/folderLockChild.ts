/**
 * Child program for the history folder's lock (`src/core/nodeFs/historyLock.ts`, from the compiled tests, so it
 * cannot be copied for another user):
 *   node folderLockChild.js count <dir> <counter file> <rounds>   adds 1 to the counter <rounds> times, each a read,
 *                                                                 a pause and a write under the lock; prints "done"
 *   node folderLockChild.js hold <dir>                            takes the lock, prints "held", and keeps it
 */
import * as fs from 'fs';
import { withFolderLock } from '../../../../src/core/nodeFs/historyLock';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const [mode, dir, counter, rounds] = process.argv.slice(2);
  if (mode === 'hold') {
    await withFolderLock(dir, async () => {
      process.stdout.write('held\n');
      // A timer keeps the process alive (the lock's own refresh timer does not).
      await new Promise(() => setInterval(() => undefined, 1000));
    });
    return;
  }
  for (let i = 0; i < Number(rounds); i++) {
    await withFolderLock(dir, async () => {
      const value = Number(fs.readFileSync(counter, 'utf8'));
      await sleep(1);
      fs.writeFileSync(counter, String(value + 1));
    });
  }
  process.stdout.write('done\n');
}

main().catch((error) => {
  process.stderr.write(`folderLockChild threw: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
