import * as assert from 'assert';
import { describeWindows, type WindowEntry } from '../../../src/mcp/index';

const entry = (name: string, folders: string[], started: number, pid: number): WindowEntry => ({ version: 1, pid, url: `http://127.0.0.1:${4000 + pid}/mcp`, token: `token-${pid}`, folders, name, started });
const base = { dir: '/home/me/.readgate/windows', dirReason: 'the user\'s home', cwd: '/w/repo/src' };

suite('what `mcp-bridge.js --list` tells a person (describeWindows)', () => {
  test('says where it looked and why, and that a folder that does not exist means no window of this user published there', () => {
    const text = describeWindows({ ...base, scan: { missing: true, windows: [], skipped: [] } });
    assert.match(text, /^Looked for VS Code windows in \/home\/me\/\.readgate\/windows\n {2}\(the user's home\)\n/);
    assert.match(text, /That folder does not exist: no VS Code window of this user/);
    assert.match(text, /READGATE_HOME/);
    assert.match(text, /Connect an External Agent/);
  });

  test('lists each window with its folders, marks the one it would pick, and says why the others are not it', () => {
    const windows = [entry('other', ['/w/other'], 1, 1), entry('repo', ['/w/repo'], 2, 2), entry('repo (older)', ['/w/repo'], 1, 3)];
    const text = describeWindows({ ...base, scan: { missing: false, windows, skipped: [{ file: '9-x.json', why: 'its process 9 is gone' }] } });
    assert.ok(text.includes('For /w/repo/src:\n'), text);
    assert.ok(text.includes('  "other" (pid 1, http://127.0.0.1:4001/mcp)\n    folders: /w/other\n    not picked: none of its folders holds /w/repo/src\n'), text);
    assert.ok(text.includes('→ "repo" (pid 2, http://127.0.0.1:4002/mcp)\n    folders: /w/repo\n    picked: its folder /w/repo holds /w/repo/src\n'), text);
    assert.ok(text.includes('    not picked: "repo" has the same folder /w/repo and was started later\n'), text);
    assert.ok(text.includes('Files left out:\n  9-x.json: its process 9 is gone\n'), text);
    assert.ok(!text.includes('token-'), 'a token was printed');
  });

  test('with windows but none for the folder, says how to reach one', () => {
    const text = describeWindows({ ...base, scan: { missing: false, windows: [entry('other', ['/w/other'], 1, 1)], skipped: [] } });
    assert.match(text, /No window holds \/w\/repo\/src: start the agent in one of the folders above, or pass --cwd <folder>\./);
  });
});
