import * as assert from 'assert';
import * as fs from 'fs';
import type { Logger } from '../../../src/core/index';
import { fixture } from '../helpers/guardFixture';

function recordingLogger(): Logger & { lines: { level: string; message: string; data?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, data });
  return { lines, trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

suite('decision log', () => {
  test('logs every decision as data (session, path, code, version) and never file content', async () => {
    const logger = recordingLogger();
    const f = fixture({ logger });
    const secret = 'CONTENT-MARKER-7f3a';
    const file = f.file('a.txt', `${secret}\nline 2\n`);
    await f.session.edit(file, [{ oldString: secret, newString: 'x' }]);
    await f.session.read(file);
    fs.writeFileSync(file, `${secret}-changed\nline 2\n`);
    await f.session.edit(file, [{ oldString: 'line 2', newString: `${secret} again` }]);
    await f.session.edit(file, [{ oldString: 'line 2', newString: 'two' }]);
    const logged = JSON.stringify(logger.lines);
    assert.ok(!logged.includes(secret), 'file content or edit text leaked into the log');
    const refusal = logger.lines.find((l) => l.message.includes('refused') && l.data?.code === 'EDIT_REQUIRES_PRIOR_READ');
    assert.ok(refusal, 'the EDIT_REQUIRES_PRIOR_READ refusal was not logged');
    assert.strictEqual(refusal.data?.session, 'test');
    assert.ok(logger.lines.some((l) => l.message.includes('read') && typeof l.data?.version === 'string'));
    assert.ok(logger.lines.some((l) => l.data?.code === 'FILE_CHANGED_SINCE_READ'));
    assert.ok(logger.lines.some((l) => l.message.includes('applied')));
  });
});
