/**
 * What the `@readgate` participant remembers of a chat, and how it finds it again. VS Code keeps no state for
 * a participant between turns except each turn's `ChatResult.metadata`, so every turn stores there the ledger
 * session it used and the tool rounds it ran (tool results as the model saw them: stubs, not the persisted
 * output). The next turn recovers the session from the newest of our turns in the history; an empty history
 * (a new or cleared chat) starts a fresh ledger, so a new chat never inherits what another one has seen.
 *
 * Pure: plain history shapes in, decisions out. Structural types stand in for `vscode.ChatRequestTurn` and
 * `vscode.ChatResponseTurn` so this file has no runtime dependency on `vscode`.
 */
import { TOOL_NAMES } from '../../core/index';
import { PARTICIPANT_PREFIX } from '../sessions/sessionKeys';

export const PARTICIPANT_ID = 'readgate.chat';

export interface ToolCallRecord {
  callId: string;
  name: string;
  input: unknown;
}

/** One exchange with the model: what it said, the tools it called, and what each call returned to it. */
export interface ToolRound {
  text: string;
  calls: ToolCallRecord[];
  /** Tool result text by call id, exactly as given to the model. */
  results: Record<string, string>;
}

export interface TurnMetadata {
  readgateSession: string;
  /** The slash command this turn ran, if any (its turns are not replayed to the model). */
  command?: 'ledger' | 'forget';
  rounds: ToolRound[];
  /** How many of this chat's earlier turns had their tool results left out of the model's context. */
  droppedTurns: number;
}

export interface RequestTurnLike {
  readonly prompt: string;
  readonly participant: string;
  readonly command?: string;
}

export interface ResponseTurnLike {
  readonly participant: string;
  readonly result: { readonly metadata?: unknown };
  readonly response: readonly unknown[];
}

export type HistoryTurn = RequestTurnLike | ResponseTurnLike;

export function isResponseTurn(turn: HistoryTurn): turn is ResponseTurnLike {
  return 'response' in turn && 'result' in turn;
}

function isRound(value: unknown): value is ToolRound {
  if (typeof value !== 'object' || value === null) return false;
  const round = value as Partial<ToolRound>;
  return typeof round.text === 'string' && Array.isArray(round.calls) && typeof round.results === 'object' && round.results !== null;
}

/** The metadata of one of our turns, or undefined when it is missing or malformed. */
export function turnMetadataOf(value: unknown): TurnMetadata | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const metadata = value as Partial<TurnMetadata>;
  if (typeof metadata.readgateSession !== 'string' || !metadata.readgateSession.startsWith(PARTICIPANT_PREFIX)) return undefined;
  return {
    readgateSession: metadata.readgateSession,
    ...(metadata.command === 'ledger' || metadata.command === 'forget' ? { command: metadata.command } : {}),
    rounds: Array.isArray(metadata.rounds) ? metadata.rounds.filter(isRound) : [],
    droppedTurns: typeof metadata.droppedTurns === 'number' && metadata.droppedTurns >= 0 ? metadata.droppedTurns : 0,
  };
}

/** Our newest turn's metadata in this chat's history, or undefined for a new or cleared chat. */
export function latestTurnMetadata(history: readonly HistoryTurn[], participantId = PARTICIPANT_ID): TurnMetadata | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!isResponseTurn(turn) || turn.participant !== participantId) continue;
    const metadata = turnMetadataOf(turn.result.metadata);
    if (metadata) return metadata;
  }
  return undefined;
}

/** One of our earlier exchanges, in the form the prompt replays it. */
export interface ReplayTurn {
  prompt: string;
  rounds: ToolRound[];
  /** The response's text when the turn kept no rounds (e.g. it failed before its metadata was written). */
  fallbackText: string;
  /** Characters of tool results in this turn (what trimming can save). */
  toolChars: number;
}

function responseText(response: readonly unknown[]): string {
  return response
    .map((part) => {
      const value = (part as { value?: unknown })?.value;
      if (typeof value === 'string') return value;
      const markdown = (value as { value?: unknown })?.value; // a MarkdownString
      return typeof markdown === 'string' ? markdown : '';
    })
    .join('');
}

/**
 * Our conversation turns to replay, oldest first: each request of ours with its response, skipping slash
 * command turns, and dropping the tool rounds of turns before the newest `/forget` (what was forgotten must
 * not seem known). Turns of other participants are not ours to replay.
 */
export function replayTurns(history: readonly HistoryTurn[], participantId = PARTICIPANT_ID): ReplayTurn[] {
  const turns: ReplayTurn[] = [];
  let pendingPrompt: string | undefined;
  for (const turn of history) {
    if (turn.participant !== participantId) {
      pendingPrompt = undefined;
      continue;
    }
    if (!isResponseTurn(turn)) {
      pendingPrompt = turn.command ? undefined : turn.prompt;
      continue;
    }
    const metadata = turnMetadataOf(turn.result.metadata);
    if (metadata?.command === 'forget') {
      for (const earlier of turns) {
        earlier.fallbackText = earlier.rounds.map((round) => round.text).join('') || earlier.fallbackText;
        earlier.rounds = [];
        earlier.toolChars = 0;
      }
    }
    if (pendingPrompt === undefined) continue;
    const rounds = metadata?.rounds ?? [];
    const toolChars = rounds.reduce((sum, round) => sum + Object.values(round.results).reduce((s, text) => s + text.length, 0), 0);
    turns.push({ prompt: pendingPrompt, rounds, fallbackText: rounds.length ? '' : responseText(turn.response), toolChars });
    pendingPrompt = undefined;
  }
  return turns;
}

/**
 * How many of the oldest turns lose their tool results so the replay fits `budgetChars`, and whether the
 * ledger must forget: the dedup placeholder says "you already have these lines", which is only true while
 * the model still sees the read that showed them. When more turns are dropped than at the previous turn,
 * content the ledger counts as shown has left the model's context, so the session must start over.
 */
export function decideReplay(
  turns: readonly Pick<ReplayTurn, 'toolChars'>[],
  otherChars: number,
  budgetChars: number,
  previouslyDropped: number,
): { dropTurns: number; forget: boolean } {
  let total = otherChars + turns.reduce((sum, turn) => sum + turn.toolChars, 0);
  let dropTurns = 0;
  while (total > budgetChars && dropTurns < turns.length) {
    total -= turns[dropTurns].toolChars;
    dropTurns++;
  }
  // Turns without tool output cost nothing to keep; counting them would forget for no reason.
  while (dropTurns > 0 && turns[dropTurns - 1].toolChars === 0) dropTurns--;
  return { dropTurns, forget: dropTurns > previouslyDropped };
}

/**
 * Whether a turn ended (cancelled) with a ReadGate read whose result never reached the model. The guard may
 * have recorded those lines as shown, so a later placeholder for them would point at content the model never
 * got; the chat must forget rather than risk that.
 */
export function hasUnansweredRead(rounds: readonly ToolRound[], readTool: string = TOOL_NAMES.read): boolean {
  return rounds.some((round) => round.calls.some((call) => call.name === readTool && round.results[call.callId] === undefined));
}
