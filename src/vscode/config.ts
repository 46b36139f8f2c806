/**
 * The one reader of ReadGate's settings: turns `readgate.*` into an immutable, validated snapshot (each value
 * clamped or defaulted by a small named reader) and fires when it changes. Core never reads settings; the
 * guard host pushes snapshots into it, so every setting applies live. It depends on no feature: the adapter's
 * own defaults live below it, in `configDefaults.ts`.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { DEFAULTS, HISTORY_DEFAULTS } from '../core/index';
import { type ApprovalMode, DEFAULT_CHAT_TOOLS, DEFAULT_PROTECTED_GLOBS } from './configDefaults';
import { Disposable } from './util/dispose';

export const SECTION = 'readgate';

const MiB = 1024 * 1024;

export interface ReadGateConfig {
  readonly dedup: boolean;
  readonly maxLines: number;
  readonly maxBytes: number;
  readonly maxLineLength: number;
  readonly maxFileBytes: number;
  readonly deny: readonly string[];
  readonly extraRoots: readonly string[];
  readonly snapshotBudgetBytes: number;
  readonly approvalMode: ApprovalMode;
  readonly protectedGlobs: readonly string[];
  readonly chatMaxToolRounds: number;
  readonly chatAdditionalTools: readonly string[];
  readonly toolResultThreshold: number;
  /** `readgate.mcp.enabled` (user settings only): serve MCP over HTTP for external agents. */
  readonly mcpEnabled: boolean;
  /** `readgate.agentHooks.enabled` (user settings only): VS Code's agents keep their own tools, judged through their hooks. */
  readonly agentHooksEnabled: boolean;
  /** `readgate.mcp.registerWithVsCode`: also offer that server to VS Code's own MCP support. */
  readonly mcpRegisterWithVsCode: boolean;
  /** `readgate.tools.maxResultChars`: the most one tool result may hold for other chat agents (0: no limit). */
  readonly toolsMaxResultChars: number;
  /** `readgate.mcp.maxReadChars`: the most one MCP result may hold, for every client (0: by client). */
  readonly mcpMaxReadChars: number;
  /** `readgate.mcp.placeholders`: the *unchanged* placeholder for MCP clients (off: their subagents share a connection). */
  readonly mcpPlaceholders: boolean;
  /** `readgate.history.maxMegabytes`: the most the change history keeps (compressed versions and records), in bytes. */
  readonly historyMaxBytes: number;
  /** `readgate.history.maxAgeDays`: changes older than this leave the history. */
  readonly historyMaxAgeDays: number;
  /** `readgate.problems.afterChange`: which problems an agent's change result reports it introduced. */
  readonly problemsAfterChange: ProblemsAfterChange;
  /** `readgate.problems.waitMs`: the longest a change's result waits for the language services. */
  readonly problemsWaitMs: number;
}

export type ProblemsAfterChange = 'errors' | 'errorsAndWarnings' | 'off';

/** The core's defaults (shared with the guard and checked against package.json) plus the adapter's own. */
export const DEFAULT_CONFIG: ReadGateConfig = {
  ...DEFAULTS,
  deny: [],
  extraRoots: [],
  approvalMode: 'always',
  protectedGlobs: DEFAULT_PROTECTED_GLOBS,
  chatMaxToolRounds: 30,
  chatAdditionalTools: DEFAULT_CHAT_TOOLS,
  mcpEnabled: false,
  agentHooksEnabled: false,
  mcpRegisterWithVsCode: false,
  mcpMaxReadChars: 0,
  mcpPlaceholders: false,
  toolsMaxResultChars: 8_000,
  historyMaxBytes: HISTORY_DEFAULTS.maxBytes,
  historyMaxAgeDays: HISTORY_DEFAULTS.maxAgeDays,
  problemsAfterChange: 'errors',
  problemsWaitMs: 2_000,
};

function readProblems(value: unknown): ProblemsAfterChange {
  return value === 'errorsAndWarnings' || value === 'off' ? value : 'errors';
}

function readMode(value: unknown): ApprovalMode {
  return value === 'sensitive' || value === 'never' ? value : 'always';
}

function readInteger(value: unknown, fallback: number, minimum: number, maximum: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(maximum, Math.max(minimum, Math.floor(value)));
}

function readStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}

/** Extra roots are absolute folders or URIs (`scheme:…`); relative entries are dropped. */
function readRoots(value: unknown): string[] {
  return readStrings(value)
    .filter((root) => path.isAbsolute(root) || /^[a-zA-Z][\w+.-]+:/.test(root))
    .map((root) => (path.isAbsolute(root) ? path.normalize(root) : root));
}

/**
 * Deny lists add up across user, workspace and folder settings: a workspace may deny more, but an empty list in
 * a repository's own settings must not replace the user's denies (arrays normally override).
 */
function readDeny(configuration: vscode.WorkspaceConfiguration): string[] {
  const levels = configuration.inspect<unknown>('paths.deny');
  if (!levels) return readStrings(configuration.get('paths.deny'));
  const all = [levels.globalValue, levels.workspaceValue, levels.workspaceFolderValue].flatMap((value) => readStrings(value));
  return [...new Set(all)];
}

/**
 * 0 (by client) or a budget from 2,000 to 500,000 characters: beyond that a single result outgrows what clients
 * take in one message (the Python SDK's client refuses an SSE event over 1 MiB).
 */
function readMaxChars(value: unknown): number {
  const chars = readInteger(value, 0, 0, 500_000);
  return chars === 0 ? 0 : Math.max(2_000, chars);
}

export function readConfig(configuration: vscode.WorkspaceConfiguration): ReadGateConfig {
  return Object.freeze({
    dedup: typeof configuration.get('read.dedup') === 'boolean' ? configuration.get<boolean>('read.dedup')! : DEFAULT_CONFIG.dedup,
    maxLines: readInteger(configuration.get('read.maxLines'), DEFAULT_CONFIG.maxLines, 1, 1_000_000),
    maxBytes: readInteger(configuration.get('read.maxBytes'), DEFAULT_CONFIG.maxBytes, 1024, 100 * 1024 * 1024),
    maxLineLength: readInteger(configuration.get('read.maxLineLength'), DEFAULT_CONFIG.maxLineLength, 80, 1_000_000),
    maxFileBytes: readInteger(configuration.get('edit.maxFileSizeMB'), DEFAULT_CONFIG.maxFileBytes / 1024 / 1024, 1, 1024) * 1024 * 1024,
    deny: Object.freeze(readDeny(configuration)),
    extraRoots: Object.freeze(readRoots(configuration.get('paths.extraRoots'))),
    snapshotBudgetBytes: readInteger(configuration.get('memory.snapshotBudgetMB'), DEFAULT_CONFIG.snapshotBudgetBytes / 1024 / 1024, 1, 4096) * 1024 * 1024,
    approvalMode: readMode(configuration.get('approval.mode')),
    protectedGlobs: Object.freeze(
      Array.isArray(configuration.get('approval.protected')) ? readStrings(configuration.get('approval.protected')) : [...DEFAULT_PROTECTED_GLOBS],
    ),
    chatMaxToolRounds: readInteger(configuration.get('chat.maxToolRounds'), DEFAULT_CONFIG.chatMaxToolRounds, 1, 200),
    chatAdditionalTools: Object.freeze(
      Array.isArray(configuration.get('chat.additionalTools')) ? readStrings(configuration.get('chat.additionalTools')) : [...DEFAULT_CHAT_TOOLS],
    ),
    toolResultThreshold: readInteger(configuration.get('toolResults.thresholdChars'), DEFAULT_CONFIG.toolResultThreshold, 2_000, 10_000_000),
    mcpEnabled: configuration.get('mcp.enabled') === true,
    agentHooksEnabled: configuration.get('agentHooks.enabled') === true,
    mcpRegisterWithVsCode: configuration.get('mcp.registerWithVsCode') === true,
    mcpMaxReadChars: readMaxChars(configuration.get('mcp.maxReadChars')),
    mcpPlaceholders: configuration.get('mcp.placeholders') === true,
    historyMaxBytes: readInteger(configuration.get('history.maxMegabytes'), DEFAULT_CONFIG.historyMaxBytes / MiB, 1, 100_000) * MiB,
    historyMaxAgeDays: readInteger(configuration.get('history.maxAgeDays'), DEFAULT_CONFIG.historyMaxAgeDays, 1, 3650),
    problemsAfterChange: readProblems(configuration.get('problems.afterChange')),
    problemsWaitMs: readInteger(configuration.get('problems.waitMs'), DEFAULT_CONFIG.problemsWaitMs, 0, 60_000),
    toolsMaxResultChars:
      configuration.get('tools.maxResultChars') === undefined ? DEFAULT_CONFIG.toolsMaxResultChars : readMaxChars(configuration.get('tools.maxResultChars')),
  });
}

function sameConfig(a: ReadGateConfig, b: ReadGateConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Owns the current snapshot and announces changes to it. */
export class Config extends Disposable {
  private _current: ReadGateConfig;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<ReadGateConfig>());
  readonly onDidChange = this._onDidChange.event;

  constructor() {
    super();
    this._current = readConfig(vscode.workspace.getConfiguration(SECTION));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        const next = readConfig(vscode.workspace.getConfiguration(SECTION));
        if (sameConfig(next, this._current)) return;
        this._current = next;
        this._onDidChange.fire(next);
      }),
    );
  }

  get current(): ReadGateConfig {
    return this._current;
  }
}
