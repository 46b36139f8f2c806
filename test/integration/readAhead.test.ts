/**
 * `readgate_read` reads its file while VS Code prepares the call: the tool's `prepareInvocation` starts the guard's
 * read-ahead, and the call that follows shows the bytes of that moment. Driven through the tool's own class with a
 * guard whose clock the test holds still, so the test can change the file between the two steps, as a person or a
 * formatter could while VS Code makes its round trip.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { createGuard } from '../../src/core/index';
import { ReadTool } from '../../src/vscode/tools/readTool';
import { ToolSessions } from '../../src/vscode/tools/toolSessions';
import { freshFile, numbered, textOf } from './helpers';

suite('readgate_read reads ahead while VS Code prepares the call', () => {
  test('the call shows the file as its prepare step read it, the next call as it is, and an edit is judged by the file now', async () => {
    const file = freshFile(numbered(5));
    // A clock that stands still: however slow the machine, the read-ahead is still current when the call comes.
    const guard = createGuard({ roots: [path.dirname(file)], clock: { now: () => 1_700_000_000_000 } });
    const sessions = new ToolSessions(guard);
    const tool = new ReadTool({ sessions });
    const token = new vscode.CancellationTokenSource().token;
    try {
      // As a URI, as Copilot may name it: the prepare step maps it as the call does.
      const filePath = vscode.Uri.file(file).toString();
      const prepared = tool.prepareInvocation({ input: { filePath } });
      assert.match(String(prepared.invocationMessage), /^Reading /);
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.writeFileSync(file, numbered(5).replace('line 3', 'line three'));
      const first = textOf(await tool.invoke({ input: { filePath }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<never>, token));
      assert.match(first, /lines 1-5 of 5/);
      assert.match(first, /3\tline 3\n/, 'the call showed the bytes its prepare step read');
      const second = textOf(await tool.invoke({ input: { filePath }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<never>, token));
      assert.match(second, /3\tline three\n/, 'without a prepare step the call reads the file as it is');
      // A session shown the bytes read ahead keeps them as what it saw; the file as it is now decides its edit.
      const session = guard.session('shown-the-bytes-read-ahead');
      tool.prepareInvocation({ input: { filePath: file } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      fs.writeFileSync(file, numbered(5).replace('line 3', 'line 3 again'));
      const read = await session.read(file);
      assert.match(read.ok ? read.text : read.message, /3\tline three\n/);
      const edit = await session.edit(file, [{ oldString: 'line 4', newString: 'line four' }]);
      assert.strictEqual(edit.ok ? 'ok' : edit.code, 'FILE_CHANGED_SINCE_READ');
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5).replace('line 3', 'line 3 again'));
    } finally {
      sessions.dispose();
      await guard.dispose();
    }
  });
});
