/** Real temporary directories, removed after each test that made one. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const made: string[] = [];

export function makeTempDir(prefix = 'readgate-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

teardown(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
