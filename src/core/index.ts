/**
 * ReadGate's headless library (`dist/core.js`): the guard that decides what an agent may read and change.
 * Plain Node, no `vscode` import, so agents outside VS Code and our own tests use exactly the semantics the
 * extension uses (API.md section 1).
 */
export { ERROR_CODES, isErrorCode } from './refusal';
export type { ErrorCode, Refusal } from './refusal';
