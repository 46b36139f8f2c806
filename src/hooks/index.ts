/**
 * Agents' own tools under the guard, through their clients' hooks (vscode-free, like src/mcp): the hook process,
 * the window's socket for it, each client's adapter and the judge that turns a hook call into the guard's
 * own-tool calls. The VS Code adapter (`src/vscode/agentHooks/`) uses only what is exported here.
 */
export { HookJudge } from './hookJudge';
export type { HookLog, HookSessions } from './hookJudge';
export { copilotAdapter, COPILOT_READ } from './copilotHooks';
export type { HookAdapter, HookEvent } from './hookEvents';
export { serveHooks } from './hookServer';
export type { HookServer } from './hookServer';
export { HOOK_ENV, HOOK_REVIEW_MS, HOOK_TIMEOUT_SECONDS } from './hookProtocol';
export { COPILOT_CHANGES, COPILOT_READS } from './judgedTools';
export { claudeAdapter } from './claudeHooks';
export { codexAdapter } from './codexHooks';
export { geminiAdapter } from './geminiHooks';
export { qwenAdapter } from './qwenHooks';
export { CODEX_CHANGES, CODEX_SHELL } from './judgedTools';
export { findHookWindow, hookWindowsDir } from './hookWindows';
export type { HookWindowEntry } from './hookWindows';
export { publishHookWindow } from './hookWindowFile';
export { CLAUDE_CHANGES, CLAUDE_READS } from './judgedTools';
export { runAgentHook } from './hookClient';
export { guardHookSessions } from './guardHookSessions';
