/** The documents a user reads carry no leftovers of a merge. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from './helpers/repoRoot';

suite('documents', () => {
  for (const name of ['CHANGELOG.md', 'README.md', 'CONTRIBUTING.md']) {
    test(`${name} has no merge conflict markers`, () => {
      const lines = fs.readFileSync(path.join(repoRoot, name), 'utf8').split('\n');
      const markers = lines.flatMap((line, i) => (/^(<{7}|={7}|>{7})( |$)/.test(line) ? [`${i + 1}: ${line}`] : []));
      assert.deepStrictEqual(markers, []);
    });
  }
});
