/**
 * One request an agent CLI sent to the model, reduced to what a script needs, whatever the wire format:
 * the tools offered, the turns the assistant already took, and the tool results the CLI sent back. The tool
 * results here are exactly what the CLI showed the model, so tests assert on them and on nothing else.
 */

export type Api = 'anthropic' | 'openai' | 'responses' | 'gemini';

export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export interface ToolResultSeen {
  /** The id of the call this answers. */
  id: string;
  /** The text the model was shown (text parts joined; other parts as `[type]`). */
  text: string;
  /**
   * The result's parts as the CLI sent them, when it sends more than one (Codex: a "Wall time: … Output:"
   * part, then the server's text); `text` joins them with newlines.
   */
  parts?: string[];
  isError: boolean;
}

export interface Conversation {
  api: Api;
  model: string;
  stream: boolean;
  /** System prompt text, joined. */
  system: string;
  /** The first user message's text, joined (Claude Code prefixes system reminders to it). */
  firstUserText: string;
  /** Names of the tools this request offers the model. */
  toolNames: string[];
  /** Each assistant turn so far, oldest first. */
  assistantTurns: { text: string; calls: ToolCall[] }[];
  /** Every tool result in the conversation, oldest first. */
  toolResults: ToolResultSeen[];
}

/** What the scripted model answers with, once tool names are resolved and ids given. */
export interface ModelReply {
  text: string;
  calls: ToolCall[];
  /** The usage's prompt size to report instead of the estimate (Reply.inputTokens). */
  inputTokens?: number;
}

/** Joins the text of a content value that is a string or a list of typed parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: unknown; content?: unknown }) => {
      if (typeof part === 'string') return part;
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'tool_result') return textOf(part.content);
      return `[${part.type ?? 'part'}]`;
    })
    .join('');
}
