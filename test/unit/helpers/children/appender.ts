/**
 * Child program for the lost-update race: appends "append <n>" lines to <file> about once a millisecond for
 * <ms> milliseconds (open, append, close each time, like a logger), then prints {"count":n}.
 * Usage: node appender.js <file> <ms>.
 */
import * as fs from 'fs';

const [file, ms] = process.argv.slice(2);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const end = Date.now() + Number(ms);
let count = 0;
while (Date.now() < end) {
  count++;
  fs.appendFileSync(file, `append ${count}\n`);
  Atomics.wait(sleeper, 0, 0, 1);
}
process.stdout.write(`${JSON.stringify({ count })}\n`);
