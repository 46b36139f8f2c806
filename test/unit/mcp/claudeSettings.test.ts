import * as assert from 'assert';
import { HOOK_TIMEOUT_SECONDS } from '../../../src/hooks/hookProtocol';
import { isReadGateHookCommand, mergeClaudeOwnTools, mergeClaudeSettings } from '../../../src/mcp/setup/claudeSettings';

const HOOK = 'node /home/me/.readgate/mcp-bridge.js hook';
const ours = (command = HOOK) => ({ type: 'command', command, timeout: 10 });
const OLD_FORGET = { type: 'command', command: 'node /home/me/.readgate/mcp-bridge.js --forget --client claude-code' };
const FRESH_CHANGES = ['allowed mcp__readgate', 'denied Edit', 'denied Write', 'denied NotebookEdit', 'added the PreToolUse hook', 'added the SubagentStop hook', 'added the PreCompact hook', 'added the SessionStart hook'];

function merged(existing: unknown) {
  const result = mergeClaudeSettings(existing, HOOK);
  assert.ok(result.ok, JSON.stringify(result));
  return result as { settings: Record<string, any>; changes: string[]; notes: string[] };
}

suite('setup claude-code: merging .claude/settings.json', () => {
  test('no file: ReadGate allowed, Edit, Write and NotebookEdit denied, and the four hooks running `hook`', () => {
    const { settings, changes, notes } = merged(undefined);
    assert.deepStrictEqual(settings, {
      permissions: { allow: ['mcp__readgate'], deny: ['Edit', 'Write', 'NotebookEdit'] },
      hooks: {
        PreToolUse: [{ matcher: 'mcp__readgate__.*', hooks: [ours(`${HOOK} --compaction-hooked`)] }],
        SubagentStop: [{ hooks: [ours()] }],
        PreCompact: [{ hooks: [ours()] }],
        SessionStart: [{ matcher: 'compact|clear', hooks: [ours()] }],
      },
    });
    assert.deepStrictEqual(changes, FRESH_CHANGES);
    assert.deepStrictEqual(notes, []);
    assert.deepStrictEqual(merged({}).changes, FRESH_CHANGES);
  });

  test('the user\'s keys, rules, hooks and matchers stay, in their order; ReadGate\'s are appended; the input is not changed', () => {
    const userHook = { type: 'command', command: 'npx prettier --check', timeout: 30 };
    const existing = {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      model: 'opus',
      hooks: {
        PostToolUse: [{ matcher: 'Write', hooks: [userHook] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [userHook] }],
        SessionStart: [{ matcher: 'startup', hooks: [userHook] }],
      },
      permissions: { defaultMode: 'acceptEdits', allow: ['Bash(npm test)', 'Read'], ask: ['Bash(git push:*)'], deny: ['Read(./.env)'] },
      env: { MCP_TOOL_TIMEOUT: '3600000' },
    };
    const before = structuredClone(existing);
    const { settings, changes } = merged(existing);
    assert.deepStrictEqual(existing, before);
    assert.deepStrictEqual(Object.keys(settings), ['$schema', 'model', 'hooks', 'permissions', 'env']);
    assert.deepStrictEqual(Object.keys(settings.permissions), ['defaultMode', 'allow', 'ask', 'deny']);
    assert.deepStrictEqual(settings.permissions.allow, ['Bash(npm test)', 'Read', 'mcp__readgate']);
    assert.deepStrictEqual(settings.permissions.deny, ['Read(./.env)', 'Edit', 'Write', 'NotebookEdit']);
    assert.deepStrictEqual(settings.permissions.ask, ['Bash(git push:*)']);
    assert.deepStrictEqual(Object.keys(settings.hooks), ['PostToolUse', 'PreToolUse', 'SessionStart', 'SubagentStop', 'PreCompact']);
    assert.deepStrictEqual(settings.hooks.PostToolUse, before.hooks.PostToolUse);
    assert.deepStrictEqual(settings.hooks.PreToolUse, [{ matcher: 'Bash', hooks: [userHook] }, { matcher: 'mcp__readgate__.*', hooks: [ours(`${HOOK} --compaction-hooked`)] }]);
    assert.deepStrictEqual(settings.hooks.SessionStart, [{ matcher: 'startup', hooks: [userHook] }, { matcher: 'compact|clear', hooks: [ours()] }]);
    assert.deepStrictEqual(settings.env, { MCP_TOOL_TIMEOUT: '3600000' });
    assert.deepStrictEqual(changes, FRESH_CHANGES);
  });

  test('a second merge changes nothing and says so (no changes), its JSON byte-identical', () => {
    for (const start of [undefined, { permissions: { allow: ['Edit'] }, hooks: { PreCompact: [{ hooks: [OLD_FORGET] }] } }]) {
      const first = merged(start);
      const second = merged(JSON.parse(JSON.stringify(first.settings)));
      assert.deepStrictEqual(second.changes, []);
      assert.strictEqual(JSON.stringify(second.settings, null, 2), JSON.stringify(first.settings, null, 2));
    }
  });

  test('an earlier guide\'s `--forget` hooks are updated in place, not duplicated; a user hook beside one keeps its place', () => {
    const userHook = { type: 'command', command: 'echo compacted >> ~/log' };
    const existing = {
      permissions: { allow: ['mcp__readgate'], deny: ['Edit', 'Write', 'NotebookEdit'] },
      hooks: {
        PreCompact: [{ hooks: [userHook, OLD_FORGET] }],
        SessionStart: [{ matcher: 'compact|clear', hooks: [{ ...OLD_FORGET }] }],
      },
    };
    const { settings, changes } = merged(existing);
    assert.deepStrictEqual(changes, ['added the PreToolUse hook', 'added the SubagentStop hook', 'updated the PreCompact hook', 'updated the SessionStart hook']);
    assert.deepStrictEqual(settings.hooks.PreCompact, [{ hooks: [userHook, ours()] }]);
    assert.deepStrictEqual(settings.hooks.SessionStart, [{ matcher: 'compact|clear', hooks: [ours()] }]);
    assert.deepStrictEqual(Object.keys(settings.hooks), ['PreCompact', 'SessionStart', 'PreToolUse', 'SubagentStop']);
  });

  test('a ReadGate hook of the headless server, another path, a copy too many or the wrong matcher: one hook, updated, with ReadGate\'s matcher', () => {
    const headless = { type: 'command', command: `node '/opt/read gate/dist/mcp.js' hook`, timeout: 10, statusMessage: 'ReadGate' };
    const userHook = { type: 'command', command: 'say compacting' };
    const { settings, changes } = merged({
      hooks: {
        PreCompact: [{ hooks: [headless] }, { hooks: [{ ...OLD_FORGET }] }],
        SessionStart: [{ matcher: 'compact', hooks: [userHook, { ...OLD_FORGET }] }],
      },
    });
    assert.ok(changes.includes('updated the PreCompact hook') && changes.includes('updated the SessionStart hook'), changes.join('\n'));
    // The copy's group, left empty, goes; the user's extra field on ReadGate's hook stays.
    assert.deepStrictEqual(settings.hooks.PreCompact, [{ hooks: [{ type: 'command', command: HOOK, timeout: 10, statusMessage: 'ReadGate' }] }]);
    // The user's hook keeps its matcher; ReadGate's moves to a group with its own.
    assert.deepStrictEqual(settings.hooks.SessionStart, [{ matcher: 'compact', hooks: [userHook] }, { matcher: 'compact|clear', hooks: [ours()] }]);
    const onlyOurs = merged({ hooks: { SessionStart: [{ matcher: 'compact', hooks: [{ ...OLD_FORGET }] }] } }).settings.hooks.SessionStart;
    assert.deepStrictEqual(onlyOurs, [{ matcher: 'compact|clear', hooks: [ours()] }]);
  });

  test('the user\'s explicit allow of Edit, Write or NotebookEdit stays, the deny is added all the same, and a note says deny wins', () => {
    const { settings, changes, notes } = merged({ permissions: { allow: ['Edit', 'Write(src/**)', 'Read'], deny: ['mcp__readgate__readgate_write'] } });
    assert.deepStrictEqual(settings.permissions.allow, ['Edit', 'Write(src/**)', 'Read', 'mcp__readgate']);
    assert.deepStrictEqual(settings.permissions.deny, ['mcp__readgate__readgate_write', 'Edit', 'Write', 'NotebookEdit']);
    assert.deepStrictEqual(changes.slice(0, 4), ['allowed mcp__readgate', 'denied Edit', 'denied Write', 'denied NotebookEdit']);
    assert.deepStrictEqual(notes, [
      'your allow rule "Edit" stays, but Claude Code applies deny rules first: Edit stays denied',
      'your allow rule "Write(src/**)" stays, but Claude Code applies deny rules first: Write stays denied',
      'your deny rule "mcp__readgate__readgate_write" stays and wins over the allow rule: Claude Code refuses the ReadGate tools it names',
    ]);
    // Nothing is ever removed: a rule already there is not added twice.
    const again = merged({ permissions: { allow: ['mcp__readgate', 'mcp__readgate'], deny: ['Write'] } });
    assert.deepStrictEqual(again.settings.permissions, { allow: ['mcp__readgate', 'mcp__readgate'], deny: ['Write', 'Edit', 'NotebookEdit'] });
    assert.match(merged({ disableAllHooks: true }).notes.join('\n'), /"disableAllHooks": true stays, and turns ReadGate's hooks off too/);
  });

  test('settings of the wrong shape are refused with what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [[], /holds a list, not a JSON object/],
      ['text', /holds a single value, not a JSON object/],
      [null, /holds a single value/],
      [{ permissions: ['Edit'] }, /"permissions" is not an object/],
      [{ permissions: { allow: 'mcp__readgate' } }, /"permissions\.allow" is not a list of strings/],
      [{ permissions: { deny: [1] } }, /"permissions\.deny" is not a list of strings/],
      [{ hooks: [] }, /"hooks" is not an object/],
      [{ hooks: { PreCompact: {} } }, /"hooks\.PreCompact" is not a list/],
      [{ hooks: { PreCompact: ['node x'] } }, /"hooks\.PreCompact\[0\]" is not an object/],
      [{ hooks: { SessionStart: [{ matcher: 'compact', hooks: 'node x' }] } }, /"hooks\.SessionStart\[0\]"\.hooks is not a list of objects/],
      [{ hooks: { PreToolUse: [{ matcher: 3, hooks: [] }] } }, /"hooks\.PreToolUse\[0\]"\.matcher is not a string/],
    ];
    for (const [existing, problem] of cases) {
      const result = mergeClaudeSettings(existing, HOOK);
      assert.ok(!result.ok && problem.test(result.problem), `${JSON.stringify(existing)}: ${JSON.stringify(result)}`);
    }
    // Events ReadGate does not touch are the user's business.
    assert.ok(mergeClaudeSettings({ hooks: { Stop: 'anything' } }, HOOK).ok);
  });

  test('ReadGate\'s hooks are known by their script and `hook` or `--forget`, quoted or not', () => {
    for (const command of [HOOK, `${HOOK} --compaction-hooked`, OLD_FORGET.command, `node '/a b/mcp.js' hook`, `node "/a b/mcp-bridge.js" --forget`, 'node mcp.js --forget --cwd x', 'node C:\\rg\\mcp-bridge.js hook', "node '/a b/agent-hook.js' --own-tools --client codex", 'node /x/agent-hook.js --root /p']) assert.ok(isReadGateHookCommand(command), command);
    for (const command of ['node /x/mcp-bridge.js --list', 'node /x/not-mcp.js hook', 'node /x/mcp.json hook', 'echo hook', 'node /x/mcp.js --root . ', 'node /x/my-agent-hook.js', undefined, 3]) assert.ok(!isReadGateHookCommand(command), String(command));
  });
});

suite('setup claude-code --own-tools: merging .claude/settings.json', () => {
  const ownTools = (existing: unknown) => {
    const result = mergeClaudeOwnTools(existing, HOOK);
    assert.ok(result.ok, JSON.stringify(result));
    return result as { settings: Record<string, any>; changes: string[]; notes: string[] };
  };
  const FLAGS = '--own-tools --client claude-code';
  const own = (timeout = 10) => ({ type: 'command', command: `${HOOK} ${FLAGS}`, timeout });

  test('no file: the hooks before and after Read, Edit, Write and NotebookEdit and on the contexts; no permission rule', () => {
    const { settings, changes, notes } = ownTools(undefined);
    assert.deepStrictEqual(settings, {
      hooks: {
        PreToolUse: [{ matcher: 'Read|Edit|Write|NotebookEdit', hooks: [own(HOOK_TIMEOUT_SECONDS)] }],
        PostToolUse: [{ matcher: 'Read|Edit|Write|NotebookEdit', hooks: [own()] }],
        SubagentStop: [{ hooks: [own()] }],
        PreCompact: [{ hooks: [own()] }],
        SessionStart: [{ matcher: 'compact|clear', hooks: [own()] }],
      },
    });
    assert.deepStrictEqual(changes, ['added the PreToolUse hook', 'added the PostToolUse hook', 'added the SubagentStop hook', 'added the PreCompact hook', 'added the SessionStart hook']);
    assert.deepStrictEqual(notes, []);
  });

  test('over the earlier set-up: its Edit, Write and NotebookEdit denials go, its hooks are turned into these in place; the user\'s rules and hooks stay', () => {
    const userHook = { type: 'command', command: 'npx prettier --check', timeout: 30 };
    const earlier = merged({ permissions: { deny: ['Read(./.env)'], allow: ['Bash(npm test)'] }, hooks: { PostToolUse: [{ matcher: 'Write', hooks: [userHook] }] } }).settings;
    const { settings, changes } = ownTools(earlier);
    assert.deepStrictEqual(settings.permissions.deny, ['Read(./.env)']);
    assert.deepStrictEqual(settings.permissions.allow, ['Bash(npm test)', 'mcp__readgate']);
    assert.deepStrictEqual(settings.hooks.PreToolUse, [{ matcher: 'Read|Edit|Write|NotebookEdit', hooks: [own(HOOK_TIMEOUT_SECONDS)] }]);
    assert.deepStrictEqual(settings.hooks.PostToolUse, [{ matcher: 'Write', hooks: [userHook] }, { matcher: 'Read|Edit|Write|NotebookEdit', hooks: [own()] }]);
    assert.deepStrictEqual(settings.hooks.SessionStart, [{ matcher: 'compact|clear', hooks: [own()] }]);
    assert.ok(changes.includes('took Edit out of permissions.deny (ReadGate judges it now)'), changes.join('; '));
    assert.ok(changes.includes('updated the PreToolUse hook'), changes.join('; '));
  });

  test('a second merge changes nothing; settings of the wrong shape are refused; disableAllHooks is noted', () => {
    const once = ownTools({ model: 'opus' }).settings;
    const twice = ownTools(once);
    assert.deepStrictEqual(twice.changes, []);
    assert.strictEqual(JSON.stringify(twice.settings), JSON.stringify(once));
    for (const bad of [[], 'x', { hooks: [] }, { hooks: { PostToolUse: {} } }, { permissions: { deny: 'Edit' } }]) {
      assert.ok(!mergeClaudeOwnTools(bad, HOOK).ok, JSON.stringify(bad));
    }
    assert.match(ownTools({ disableAllHooks: true }).notes.join('\n'), /disableAllHooks.*nothing is judged/);
  });
});
