/**
 * Child program for the FIFO race: for <ms> milliseconds swaps <root>/f.txt between a regular file and a FIFO
 * (each made beside it, then renamed over it), ending with a regular file; prints {"swaps":n}.
 * Usage: node fifoSwapper.js <root> <ms>.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const [root, ms] = process.argv.slice(2);
const target = path.join(root, 'f.txt');
const regular = path.join(root, 'f.regular');
const fifo = path.join(root, 'f.fifo');
const end = Date.now() + Number(ms);
let swaps = 0;
while (Date.now() < end) {
  fs.writeFileSync(regular, 'alpha\nbeta\n');
  fs.renameSync(regular, target);
  execFileSync('mkfifo', [fifo]);
  fs.renameSync(fifo, target);
  swaps++;
}
fs.writeFileSync(regular, 'alpha\nbeta\n');
fs.renameSync(regular, target);
process.stdout.write(`${JSON.stringify({ swaps })}\n`);
