/**
 * The `@readgate` chat participant: works on the user's files with the user's chosen model through ReadGate's
 * five tools (and read-only tools other extensions offer), one ledger session per chat. The session id is
 * minted into `ChatResult.metadata` and recovered from the history on later turns; an empty history starts a
 * fresh ledger. While a request runs, its chat is bound to that session, so the tool calls it makes through
 * `lm.invokeTool` are enforced and deduplicated exactly. Slash commands: `/ledger` shows what this chat has
 * seen, `/forget` clears it (and removes expired saved tool results).
 */
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { type Guard, TOOL_NAMES, type ToolResultStore } from '../../core/index';
import type { Config } from '../config';
import type { Log } from '../log';
import { ledgerMarkdown } from '../reports/reports';
import { PARTICIPANT_PREFIX } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { ToolSessions } from '../tools/toolSessions';
import { Disposable } from '../util/dispose';
import { charsOf, instructions, replayMessages, requestMessage } from './chatPrompt';
import { decideReplay, hasUnansweredRead, type HistoryTurn, latestTurnMetadata, PARTICIPANT_ID, replayTurns, type TurnMetadata } from './chatTurns';
import { type LoopOutcome, runToolLoop } from './toolLoop';

/** Characters per token assumed when fitting the replay into the model's context (conservative). */
const CHARS_PER_TOKEN = 3;

export interface ParticipantDeps {
  extensionUri: vscode.Uri;
  guard: Guard;
  toolSessions: ToolSessions;
  toolResults: ToolResultStore;
  labels: SessionLabels;
  config: Config;
  log: Log;
}

export interface ParticipantTurn {
  sessionId: string;
  result: vscode.ChatResult;
}

export class ReadGateParticipant extends Disposable {
  private readonly _onDidFinishTurn = this._register(new vscode.EventEmitter<ParticipantTurn>());
  /** Fires after every turn (tests and views observe the sessions the participant uses). */
  readonly onDidFinishTurn = this._onDidFinishTurn.event;

  constructor(private readonly deps: ParticipantDeps) {
    super();
    const participant = this._register(
      vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => this.handle(request, context, stream, token)),
    );
    participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'icon.png');
    participant.followupProvider = { provideFollowups: (result) => this.followups(result) };
  }

  private async handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const history = context.history as readonly HistoryTurn[];
    const previous = latestTurnMetadata(history);
    const sessionId = previous?.readgateSession ?? `${PARTICIPANT_PREFIX}${randomUUID()}`;
    if (!previous) this.deps.labels.set(sessionId, `@readgate: ${request.prompt.trim().slice(0, 40) || 'chat'}`);
    let result: vscode.ChatResult;
    // Slash command turns replay nothing, so they carry the count of dropped turns on unchanged.
    const dropped = previous?.droppedTurns ?? 0;
    if (request.command === 'ledger') result = await this.ledger(sessionId, stream, dropped);
    else if (request.command === 'forget') result = await this.forget(sessionId, stream, dropped);
    else result = await this.converse(request, history, previous, sessionId, stream, token);
    this._onDidFinishTurn.fire({ sessionId, result });
    return result;
  }

  private async ledger(sessionId: string, stream: vscode.ChatResponseStream, droppedTurns: number): Promise<vscode.ChatResult> {
    const guard = this.deps.guard;
    const seen = guard.hasSession(sessionId) ? guard.session(sessionId).entries() : [];
    stream.markdown(
      seen.length
        ? await ledgerMarkdown(guard, this.deps.labels, sessionId, { heading: false })
        : 'This chat has not seen any file yet. Ask me to read or change something.',
    );
    return { metadata: this.metadata(sessionId, [], droppedTurns, 'ledger') };
  }

  private async forget(sessionId: string, stream: vscode.ChatResponseStream, droppedTurns: number): Promise<vscode.ChatResult> {
    const guard = this.deps.guard;
    const count = guard.hasSession(sessionId) ? guard.session(sessionId).entries().length : 0;
    if (guard.hasSession(sessionId)) guard.session(sessionId).clear();
    this.deps.toolResults.forgetSession(sessionId);
    const removed = await this.deps.toolResults.cleanup();
    this.deps.log.info('[chat] /forget', { session: sessionId, files: count, expiredResultsRemoved: removed });
    stream.markdown(
      count
        ? `Forgot what this chat had seen (${count} file${count === 1 ? '' : 's'}). Files will be read again before they are changed.`
        : 'This chat had not seen any file; there was nothing to forget.',
    );
    return { metadata: this.metadata(sessionId, [], droppedTurns, 'forget') };
  }

  private async converse(
    request: vscode.ChatRequest,
    history: readonly HistoryTurn[],
    previous: TurnMetadata | undefined,
    sessionId: string,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const config = this.deps.config.current;
    const { messages, dropTurns } = this.prepareMessages(request, history, previous, sessionId, stream);
    const tools = this.offeredTools(config.chatAdditionalTools);
    const binding = this.deps.toolSessions.bind(request.toolInvocationToken, sessionId);
    if (!binding) {
      this.deps.log.warn("[chat] this VS Code does not tell which chat a tool call belongs to; its tool calls stand alone, without this chat's ledger", {
        session: sessionId,
      });
    }
    let outcome: LoopOutcome;
    try {
      outcome = await runToolLoop({
        request,
        stream,
        token,
        sessionId,
        messages,
        tools,
        maxRounds: config.chatMaxToolRounds,
        toolResults: this.deps.toolResults,
        log: this.deps.log,
      });
    } finally {
      binding?.dispose();
    }
    return this.finishTurn(request, sessionId, outcome, dropTurns, stream);
  }

  /** This turn's messages: the instructions, the earlier turns that still fit the model, the request. */
  private prepareMessages(
    request: vscode.ChatRequest,
    history: readonly HistoryTurn[],
    previous: TurnMetadata | undefined,
    sessionId: string,
    stream: vscode.ChatResponseStream,
  ): { messages: vscode.LanguageModelChatMessage[]; dropTurns: number } {
    const turns = replayTurns(history);
    const current = [vscode.LanguageModelChatMessage.User(instructions()), requestMessage(request)];
    // Earlier turns may fill three quarters of the model's context; the rest is for this turn's own tool rounds.
    const budget = Math.floor(request.model.maxInputTokens * CHARS_PER_TOKEN * 0.75);
    const { dropTurns, forget } = decideReplay(
      turns,
      charsOf(current) + turns.reduce((sum, turn) => sum + turn.prompt.length, 0),
      budget,
      previous?.droppedTurns ?? 0,
    );
    this.deps.log.info('[chat] turn started', {
      session: sessionId,
      model: request.model.id,
      maxInputTokens: request.model.maxInputTokens,
      earlierTurns: turns.length,
      droppedTurns: dropTurns,
    });
    if (forget) {
      // Content the ledger counts as shown left the model's context: placeholders for it would lie.
      this.deps.guard.session(sessionId).clear();
      this.deps.log.info('[chat] older tool output no longer fits the model; session cleared', { session: sessionId, droppedTurns: dropTurns });
      stream.progress("Older file contents no longer fit the model's context, so this chat will read files again.");
    }
    const messages = [current[0], ...replayMessages(turns, dropTurns), current[1]];
    return { messages, dropTurns };
  }

  /** After the tool loop: what a cancelled read leaves, the log line, the turn's metadata and any error. */
  private finishTurn(
    request: vscode.ChatRequest,
    sessionId: string,
    outcome: LoopOutcome,
    dropTurns: number,
    stream: vscode.ChatResponseStream,
  ): vscode.ChatResult {
    const config = this.deps.config.current;
    if (outcome.kind === 'cancelled' && hasUnansweredRead(outcome.rounds)) {
      this.deps.guard.session(sessionId).clear();
      this.deps.log.info('[chat] cancelled during a read; session cleared so no placeholder points at content the model never got', { session: sessionId });
    }
    this.deps.log.info('[chat] turn finished', {
      session: sessionId,
      outcome: outcome.kind,
      rounds: outcome.rounds.length,
      toolCalls: outcome.rounds.reduce((n, round) => n + round.calls.length, 0),
    });
    const metadata = this.metadata(sessionId, outcome.rounds, dropTurns);
    if (outcome.kind === 'roundCap') {
      stream.markdown(`\n\n_Stopped after ${config.chatMaxToolRounds} rounds of tool calls (\`readgate.chat.maxToolRounds\`). Say "continue" to go on._`);
    }
    if (outcome.kind === 'modelError') {
      return {
        metadata,
        errorDetails: { message: `The model ${request.model.name} could not answer: ${outcome.message}. Pick another model in the chat input, or try again.` },
      };
    }
    return { metadata };
  }

  /** ReadGate's tools, plus the configured read-only tools that some extension actually provides. */
  private offeredTools(additional: readonly string[]): vscode.LanguageModelChatTool[] {
    const wanted = new Set<string>([...Object.values(TOOL_NAMES), ...additional]);
    return vscode.lm.tools
      .filter((tool) => wanted.has(tool.name))
      .map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  }

  private metadata(sessionId: string, rounds: TurnMetadata['rounds'], droppedTurns: number, command?: TurnMetadata['command']): TurnMetadata {
    return { readgateSession: sessionId, rounds, droppedTurns, ...(command ? { command } : {}) };
  }

  private followups(result: vscode.ChatResult): vscode.ChatFollowup[] {
    const metadata = result.metadata as Partial<TurnMetadata> | undefined;
    if (!metadata?.readgateSession || metadata.command) return [];
    const touched = (metadata.rounds ?? []).some((round) => round.calls.some((call) => Object.values(TOOL_NAMES).includes(call.name as never)));
    return touched ? [{ prompt: '', command: 'ledger', label: 'Which files has this chat seen?' }] : [];
  }
}
