/**
 * The MCP surface (vscode-free): the five tools as an MCP server, the HTTP request check, and window
 * discovery. The extension serves it over HTTP; `dist/mcp.js` over stdio on the headless guard;
 * `dist/mcp-bridge.js` relays stdio to a window.
 */
export { clientLabel, createToolServer, toCallToolResult } from './toolServer';
export { withoutControls } from './controlCharacters';
export type { ToolServerOptions } from './toolServer';
export { MCP_TOOLS, READGATE_VERSION } from './toolDefinitions';
export { checkRequest } from './requestCheck';
export type { RequestFacts, RequestVerdict } from './requestCheck';
export { discoveryDir, discoveryDirReason, listWindows, publishWindow, readgateHome, scanWindows, userHome } from './discovery';
export type { WindowEntry, WindowScan } from './discovery';
export { windowFileId } from './windowFileId';
export { decideWindows, pickWindow } from './windowChoice';
export type { WindowDecision, WindowVerdict } from './windowChoice';
export { describeWindows } from './windowList';
export { MCP_PATH, serveHttp } from './httpServer';
export type { HttpMcpServer, HttpServeOptions } from './httpServer';
export { CLIENT_PROFILES, DEFAULT_MAX_RESULT_CHARS, clientPolicy, profileOf } from './clientProfiles';
export type { ClientPolicy, ClientProfile, PolicyOverrides } from './clientProfiles';
export { WAIT_PROGRESS_INTERVAL_MS, WaitProgress, progressReport, reviewWaitMessage } from './waitProgress';
export type { ProgressReport } from './waitProgress';
export { ForgetWatch, concerns, forgetDir, listForgetMarkers, mustForget, requestForget } from './forget';
export type { ForgetMarker } from './forget';
export { shellWord } from './shellWord';
export { claudeMcpAddLine } from './setup/claudeCode';
export { CODEX_AGENTS_MD } from './setup/codex';
export { CODEX_TOOL_TIMEOUT_SECONDS, codexServerTable } from './setup/codexConfig';
export { AgentContexts, contextLabel, contextSessionId } from './agentContexts';
export type { AgentContext, ContextEffects } from './agentContexts';
export { MAIN_AGENT, callIdOf, contextNotesDir, takeNote, writeNote } from './contextNotes';
export type { ContextNote } from './contextNotes';
export { decideHook } from './contextHook';
export type { HookAction } from './contextHook';
