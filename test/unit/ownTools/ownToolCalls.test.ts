/**
 * An agent's own tools judged by the guard, on real temp directories: a read counts for the lines its client
 * showed, only in a version that held from before the read to after it; a change is judged as the session's own
 * edit (exact old text, in seen lines, unchanged since), approved through the port, never written by the guard;
 * afterwards it is recorded as what the tool actually wrote. These are the rules the hooks of Copilot, Claude
 * Code, Codex, Gemini CLI and Qwen Code rely on, each of which bring a client's call here through an adapter.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { ApprovalDecision, ApprovalRequest, GuardSession, OwnChange, Refusal } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { put } from '../helpers/results';

const numbered = (count: number, word = 'line'): string => Array.from({ length: count }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';

function setup(approve?: (request: ApprovalRequest) => Promise<ApprovalDecision>) {
  const root = makeTempDir();
  const history = path.join(makeTempDir(), 'history');
  const guard = createGuard({ roots: [root], history: { dir: history }, ...(approve ? { approve } : {}) });
  return { root, guard, session: guard.session('copilot-chat') };
}

let calls = 0;
const callId = (): string => `call_${++calls}__vscode-1`;

/** A read by the agent's own tool, both hooks around it; `between` runs while the tool "reads". */
async function ownRead(session: GuardSession, file: string, startLine: number, endLine?: number, between?: () => void, extra: object = {}) {
  const id = callId();
  assert.deepStrictEqual(await session.beforeOwnRead({ callId: id, path: file, cut: { startLine, ...(endLine ? { endLine } : {}), ...extra } }), { ok: true });
  between?.();
  return session.afterOwnRead(id);
}

async function judge(session: GuardSession, files: OwnChange[] | { patch: string }, tool = 'replace_string_in_file') {
  const id = callId();
  const judgement = await session.judgeOwnChange({ callId: id, tool, change: Array.isArray(files) ? { files } : files });
  return { id, judgement };
}

const edit = (file: string, oldString: string, newString: string): OwnChange => ({ kind: 'edit', path: file, edits: [{ oldString, newString }] });

function code(result: { ok: boolean }): string {
  return result.ok ? 'allowed' : (result as Refusal).code;
}

suite('own tools: what a read counts', () => {
  test('a read of lines 1-50 lets the agent edit line 5 and refuses line 290, which it was never shown; nothing is written by the guard', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'big.txt'), numbered(300));
    const observed = await ownRead(session, file, 1, 50);
    assert.deepStrictEqual(observed, { ok: true, path: file, lines: '1–50' });
    assert.strictEqual(code((await judge(session, [edit(file, 'line 5\n', 'line five\n')])).judgement), 'allowed');
    const refused = (await judge(session, [edit(file, 'line 290\n', 'CHANGED\n')])).judgement as Refusal;
    assert.strictEqual(refused.code, 'EDIT_OUTSIDE_SEEN_RANGE', refused.message);
    assert.match(refused.message, /290/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(300));
  });

  test('a file that changed while it was read counts for nothing: the edit needs a new read', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'a.txt'), numbered(10));
    const observed = await ownRead(session, file, 1, 10, () => fs.writeFileSync(file, numbered(10).replace('line 9', 'line nine')));
    assert.ok(observed.ok && observed.lines === '' && /changed while it was read/.test(observed.note ?? ''), JSON.stringify(observed));
    assert.strictEqual(code((await judge(session, [edit(file, 'line 2\n', 'two\n')])).judgement), 'EDIT_REQUIRES_PRIOR_READ');
  });

  test('lines the client shortens are not seen, and nothing counts past what the client is sure to show', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'long.txt'), ['short', 'x'.repeat(2001), 'after', 'y'.repeat(50), 'tail'].join('\n') + '\n');
    const observed = await ownRead(session, file, 1, 5, undefined, { maxLineChars: 2000, maxChars: 2060 });
    assert.deepStrictEqual(observed, { ok: true, path: file, lines: '1, 3', note: 'lines from 4 on may not have been shown (the client may cut a long result); line 2 shortened by the client' });
    assert.strictEqual(code((await judge(session, [edit(file, 'after\n', 'AFTER\n')])).judgement), 'allowed');
    assert.strictEqual(code((await judge(session, [edit(file, 'tail\n', 'TAIL\n')])).judgement), 'EDIT_OUTSIDE_SEEN_RANGE');
  });

  test('a range is clamped and turned round as the client does: lines 8 back to 3 of a 5-line file show 3-5', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'c.txt'), numbered(5));
    assert.deepStrictEqual(await ownRead(session, file, 8, 3), { ok: true, path: file, lines: '3–5' });
  });

  test('a read after the session was cleared (a compaction) between its two hooks counts for nothing', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'd.txt'), numbered(5));
    const observed = await ownRead(session, file, 1, 5, () => session.clear());
    assert.strictEqual(observed.ok && observed.lines, '');
    assert.strictEqual(code((await judge(session, [edit(file, 'line 1\n', 'one\n')])).judgement), 'EDIT_REQUIRES_PRIOR_READ');
  });

  test('a read ReadGate does not guard (outside the roots), a missing call id and a binary file count nothing, without an error', async () => {
    const { root, session } = setup();
    const outside = put(path.join(makeTempDir(), 'x.txt'), 'x\n');
    const binary = put(path.join(root, 'b.bin'), Buffer.from([0, 1, 2, 0, 255]));
    assert.match((await ownRead(session, outside, 1, 1)).ok ? ((await session.afterOwnRead('call_unknown')) as { note: string }).note : '', /no read with this call id/);
    const observed = await ownRead(session, binary, 1, 1);
    assert.deepStrictEqual(observed, { ok: true, path: binary, lines: '', note: 'not text' });
  });
});

suite('own tools: judging a change', () => {
  test("an outside change of a seen line is refused with the diff and who changed it; the file keeps the other writer's bytes", async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'e.txt'), numbered(10));
    await ownRead(session, file, 1, 10);
    fs.writeFileSync(file, numbered(10).replace('line 5\n', 'line 5!\n'));
    guard.noteChange(file, { kind: 'external' });
    const refused = (await judge(session, [edit(file, 'line 5\n', 'line five\n')])).judgement as Refusal;
    assert.strictEqual(refused.code, 'FILE_CHANGED_SINCE_READ', refused.message);
    assert.match(refused.message, /-line 5\n\+line 5!/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(10).replace('line 5\n', 'line 5!\n'));
    // The refusal showed the changed line: the corrected edit is allowed without another read.
    assert.strictEqual(code((await judge(session, [edit(file, 'line 5!\n', 'line five\n')])).judgement), 'allowed');
  });

  test('an old text not exactly in the file is refused, never matched loosely: a trailing space, curly quotes', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'f.ts'), 'const a = "x";\nline 6\n');
    await ownRead(session, file, 1, 2);
    assert.strictEqual(code((await judge(session, [edit(file, 'line 6 \n', 'six \n')])).judgement), 'NO_OCCURRENCE_FOUND');
    assert.strictEqual(code((await judge(session, [edit(file, 'const a = “x”;', 'const a = 1;')])).judgement), 'NO_OCCURRENCE_FOUND');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'const a = "x";\nline 6\n');
  });

  test('replacing an unread file is refused; replacing a file needs all of it seen; a new file is free', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'g.txt'), numbered(20));
    const write = (target: string, content: string): OwnChange => ({ kind: 'write', path: target, content });
    assert.strictEqual(code((await judge(session, [write(file, 'all new\n')], 'create_file')).judgement), 'EDIT_REQUIRES_PRIOR_READ');
    await ownRead(session, file, 1, 10);
    assert.strictEqual(code((await judge(session, [write(file, 'all new\n')], 'create_file')).judgement), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.strictEqual(code((await judge(session, [write(path.join(root, 'new', 'n.txt'), 'fresh\n')], 'create_file')).judgement), 'allowed');
    assert.ok(!fs.existsSync(path.join(root, 'new')), 'the guard created nothing');
  });

  test('a loose edit (the tool places it) needs the whole file seen in its current version', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'h.txt'), numbered(6));
    await ownRead(session, file, 1, 3);
    const loose: OwnChange = { kind: 'loose', path: file };
    const refused = (await judge(session, [loose], 'insert_edit_into_file')).judgement as Refusal;
    assert.strictEqual(refused.code, 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(refused.message, /decides itself where its change goes/);
    await ownRead(session, file, 4, 6);
    assert.strictEqual(code((await judge(session, [loose], 'insert_edit_into_file')).judgement), 'allowed');
  });

  test('a patch is placed by its exact context: a hunk in seen, unchanged lines is allowed, a stale one refused with where they differ', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'p.txt'), 'alpha\nbeta\ngamma\n');
    await ownRead(session, file, 1, 3);
    const patch = (context: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n ${context}\n-gamma\n+gamma2\n*** End Patch`;
    assert.strictEqual(code((await judge(session, { patch: patch('beta') }, 'apply_patch')).judgement), 'allowed');
    const stale = (await judge(session, { patch: patch('BETA') }, 'apply_patch')).judgement as Refusal;
    assert.ok(!stale.ok && stale.message.includes('beta'), JSON.stringify(stale));
  });

  test('bad input is INVALID_INPUT and leaves the file as it was', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'i.txt'), 'x\n');
    const hostile = { callId: 'c', tool: 't', get change(): never { throw new Error('boom'); } };
    assert.strictEqual(code(await session.judgeOwnChange(hostile as never)), 'INVALID_INPUT');
    assert.strictEqual(code(await session.judgeOwnChange({ callId: '', tool: 't', change: { files: [edit(file, 'x', 'y')] } })), 'INVALID_INPUT');
    assert.strictEqual(code(await session.judgeOwnChange({ callId: 'c', tool: 't', change: { files: [] } })), 'INVALID_INPUT');
    assert.strictEqual(code(await session.beforeOwnRead({ callId: 'c', path: file, cut: { startLine: Number.NaN } })), 'INVALID_INPUT');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'x\n');
  });
});

suite('own tools: after the change', () => {
  test('a change written as allowed is on record (the tool, the hook surface) and the lines it wrote count as seen', async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'j.txt'), numbered(300));
    await ownRead(session, file, 1, 50);
    const { id, judgement } = await judge(session, [edit(file, 'line 5\n', 'line five\nline five b\n')]);
    assert.ok(judgement.ok);
    fs.writeFileSync(file, numbered(300).replace('line 5\n', 'line five\nline five b\n')); // the tool writes
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'as-allowed' }] });
    const [change] = await guard.history();
    assert.strictEqual(change.tool, 'replace_string_in_file');
    assert.strictEqual(change.surface, 'hook');
    assert.strictEqual(change.files[0].path, file);
    // Written lines count as seen (the edit of line 6, "line five b", needs no new read); line 290 still does.
    assert.strictEqual(code((await judge(session, [edit(file, 'line five b\n', 'b\n')])).judgement), 'allowed');
    assert.strictEqual(code((await judge(session, [edit(file, 'line 290\n', 'x\n')])).judgement), 'EDIT_OUTSIDE_SEEN_RANGE');
  });

  test('a result other than what was allowed is recorded as it is, and none of it counts as seen', async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'k.txt'), numbered(5));
    await ownRead(session, file, 1, 5);
    const { id } = await judge(session, [edit(file, 'line 2\n', 'two\n')]);
    fs.writeFileSync(file, numbered(5).replace('line 2\n', 'two \n')); // the tool wrote something else
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'different' }] });
    assert.strictEqual((await guard.history()).length, 1);
    assert.strictEqual(code((await judge(session, [edit(file, 'two \n', 'TWO\n')])).judgement), 'FILE_CHANGED_SINCE_READ');
  });

  test('a tool that wrote nothing leaves nothing on record, and a call id after-hooked twice is recorded once', async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'l.txt'), numbered(3));
    await ownRead(session, file, 1, 3);
    const { id } = await judge(session, [edit(file, 'line 1\n', 'one\n')]);
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'unchanged' }] });
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [] });
    assert.strictEqual((await guard.history()).length, 0);
  });

  test('a new file the tool created is on record as a creation, and the session knows it whole', async () => {
    const { root, session, guard } = setup();
    const file = path.join(root, 'created.txt');
    const { id } = await judge(session, [{ kind: 'write', path: file, content: 'new\nfile\n' }], 'create_file');
    fs.writeFileSync(file, 'new\nfile\n');
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'as-allowed' }] });
    assert.strictEqual((await guard.history())[0].files[0].kind, 'create');
    assert.strictEqual(code((await judge(session, [edit(file, 'file\n', 'FILE\n')])).judgement), 'allowed');
  });

  test('a loose change is recorded as the tool wrote it, and the lines it kept and wrote count as seen', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'm.txt'), numbered(4));
    await ownRead(session, file, 1, 4);
    const { id } = await judge(session, [{ kind: 'loose', path: file }], 'insert_edit_into_file');
    fs.writeFileSync(file, 'line 1\ninserted\nline 2\nline 3\nline 4\n');
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'as-allowed' }] });
    assert.strictEqual(code((await judge(session, [edit(file, 'inserted\nline 2\n', 'x\n')])).judgement), 'allowed');
  });
});

suite('own tools: review', () => {
  test('the approve port is told which tool applies the change; a review that kept only part of it refuses it, naming the difference', async () => {
    const requests: ApprovalRequest[] = [];
    const { root, session } = setup(async (request) => {
      requests.push(request);
      return { approved: true, files: [{ path: request.files[0].path, content: request.files[0].after.replace('TWO', 'two') }] };
    });
    const file = put(path.join(root, 'n.txt'), 'one\ntwo\nthree\n');
    await ownRead(session, file, 1, 3);
    const refused = (await judge(session, [edit(file, 'one\ntwo\n', 'ONE\nTWO\n')])).judgement as Refusal;
    assert.deepStrictEqual(requests[0].ownTool, { name: 'replace_string_in_file', preview: true });
    assert.strictEqual(refused.code, 'REJECTED_BY_USER');
    assert.match(refused.message, /accepted only part of this change/);
    assert.match(refused.message, /-TWO\n\+two/);
  });

  test('a loose edit the policy would review cannot be previewed: refused with what to do instead', async () => {
    const { root, session } = setup(async (request) => (request.ownTool?.preview === false ? { approved: false } : { approved: true }));
    const file = put(path.join(root, 'o.txt'), 'one\n');
    await ownRead(session, file, 1, 1);
    const refused = (await judge(session, [{ kind: 'loose', path: file }], 'insert_edit_into_file')).judgement as Refusal;
    assert.strictEqual(refused.code, 'REJECTED_BY_USER');
    assert.match(refused.message, /nothing to review/);
  });
});

suite('own tools: a write that lands after the tool returned', () => {
  test('a write landing within the settle time is recorded as allowed', async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'q.txt'), numbered(3));
    await ownRead(session, file, 1, 3);
    const { id } = await judge(session, [edit(file, 'line 1\n', 'one\n')]);
    setTimeout(() => fs.writeFileSync(file, numbered(3).replace('line 1\n', 'one\n')), 100);
    assert.deepStrictEqual(await session.afterOwnChange(id, { settleMs: 2000 }), { ok: true, files: [{ path: file, outcome: 'as-allowed' }] });
    assert.strictEqual((await guard.history()).length, 1);
  });

  test("one landing later is recorded before the session's next call, so the agent's own lines are not a change it missed", async () => {
    const { root, session, guard } = setup();
    const file = put(path.join(root, 'r.txt'), numbered(3));
    await ownRead(session, file, 1, 3);
    const { id } = await judge(session, [edit(file, 'line 1\n', 'one\n')]);
    assert.deepStrictEqual(await session.afterOwnChange(id), { ok: true, files: [{ path: file, outcome: 'unchanged' }] });
    fs.writeFileSync(file, numbered(3).replace('line 1\n', 'one\n')); // the client's write lands now
    assert.strictEqual(code((await judge(session, [edit(file, 'one\nline 2\n', 'one\ntwo\n')])).judgement), 'allowed');
    assert.strictEqual((await guard.history()).length, 1);
  });
});
