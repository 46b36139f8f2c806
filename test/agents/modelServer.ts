/**
 * A local HTTP server that plays the model for one agent CLI run. It records every request, sorts each into
 * the main agent's conversation, a subagent's, or a side request the CLI makes for itself (titles, quota and
 * topic checks: answered with a short text, never shown to the script), and asks the script for the next reply.
 *
 * Steps are counted from the conversation the CLI sends. The script is asked once per step of a conversation;
 * a request for the same step again (a retry, or the request after the harness loaded a deferred tool) gets
 * the same reply, so scripts may keep state. Calls the harness inserts to load deferred tools carry a `load`
 * id and are not counted as steps.
 * When the CLI compacts a conversation (a dialect recognizes its request for a summary), the script is asked
 * for the summary in a `compaction` context; the conversation that then starts with that summary is the same
 * agent's: its steps count the replies the compacted conversation still holds (Claude Code keeps the latest ones
 * verbatim after the summary), and `Turn.compactions` says how many compactions it went through.
 * Listens on 127.0.0.1 only, on a port the system picks.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { parseAnthropic, writeAnthropicReply, writeTokenCount } from './anthropicApi';
import type { Api, Conversation, ModelReply, ToolCall, ToolResultSeen } from './conversation';
import { geminiEndpoint, parseGemini, writeGeminiReply } from './geminiApi';
import { parseOpenAi, writeOpenAiReply } from './openaiApi';
import { parseResponses, writeResponsesReply } from './responsesApi';
import type { AgentContext, Reply, Script, ScriptCall } from './script';

/** What the server needs to know about one CLI's habits. */
export interface Dialect {
  api: Api;
  /**
   * The call that loads deferred tools (named as the CLI names them), when the CLI hides tools behind a search
   * tool; the model sees their schemas in its result.
   */
  loadCall(conversation: Conversation, names: string[]): ScriptCall | undefined;
  /** The call that runs a deferred tool the request still does not declare, through the CLI's bridge tool. */
  bridgeCall(conversation: Conversation, name: string, input: Record<string, unknown>): ScriptCall | undefined;
  /** The prompt a call hands to a new subagent, if the call spawns one. */
  subagentPrompt(call: ToolCall): string | undefined;
  /** Whether a request (its JSON body) asks the model to summarize the conversation so the CLI can compact it. */
  isCompaction?(body: unknown): boolean;
}

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  context?: AgentContext;
  conversation?: Conversation;
  reply?: ModelReply;
}

export interface IssuedCall extends ToolCall {
  /** The name the script used (`readgate_read`); `name` is the CLI's (`mcp__readgate__readgate_read`). */
  tool: string;
  context: AgentContext;
  loader: boolean;
}

/** A call the script made, with what the CLI showed the model as its result (undefined: never sent back). */
export interface ToolResultRecord extends IssuedCall {
  result?: ToolResultSeen;
}

const LOAD_TAG = 'load';

/** Each API's model endpoint (whether a path, without its query, is one), request reader and reply writer. */
const API: Record<Api, { isEndpoint(path: string): boolean; parse(body: object, path: string): Conversation; write: typeof writeAnthropicReply }> = {
  anthropic: { isEndpoint: (path) => path.endsWith('/messages'), parse: parseAnthropic, write: writeAnthropicReply },
  openai: { isEndpoint: (path) => path.endsWith('/chat/completions'), parse: parseOpenAi, write: writeOpenAiReply },
  responses: { isEndpoint: (path) => path.endsWith('/responses'), parse: parseResponses, write: writeResponsesReply },
  gemini: { isEndpoint: (path) => geminiEndpoint(path) !== undefined, parse: parseGemini, write: writeGeminiReply },
};

export class ModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly calls: IssuedCall[] = [];
  readonly scriptErrors: string[] = [];
  private readonly replies = new Map<string, Promise<Reply>>();
  /** The summaries the script gave compaction requests, with the conversation each one continues. */
  private readonly summaries: { text: string; context: AgentContext }[] = [];
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  constructor(
    private readonly dialect: Dialect,
    private readonly script: Script,
    private readonly mainPrompt: string,
  ) {}

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Each call the script made, in order, with the first result the CLI sent back for it. */
  toolResults(): ToolResultRecord[] {
    return this.calls
      .filter((issued) => !issued.loader)
      .map((issued) => {
        const holder = this.requests.find((request) => request.conversation?.toolResults.some((result) => result.id === issued.id));
        return { ...issued, result: holder?.conversation?.toolResults.find((result) => result.id === issued.id) };
      });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // recorded as text
      }
      const record: RecordedRequest = { index: this.requests.length, method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      this.requests.push(record);
      this.answer(record, raw, res).catch((error: unknown) => {
        this.scriptErrors.push(String(error));
        res.destroy();
      });
    });
  }

  private async answer(record: RecordedRequest, raw: string, res: http.ServerResponse): Promise<void> {
    const path = record.path.split('?')[0];
    if (record.method === 'POST' && path.endsWith('/messages/count_tokens')) return writeTokenCount(res, record.body);
    const api = API[this.dialect.api];
    const isModelCall = record.method === 'POST' && api.isEndpoint(path);
    if (!isModelCall || typeof record.body !== 'object') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'not_found_error', message: `the scripted model does not serve ${record.method} ${path}` } }));
      return;
    }
    const conversation = api.parse(record.body as object, record.path);
    record.conversation = conversation;
    record.context = this.classify(conversation, record.body);
    record.reply = record.context.kind === 'side' ? { text: 'OK', calls: [] } : await this.nextReply(record.context, conversation, raw);
    api.write(res, conversation, record.reply, record.body, record.index);
  }

  private classify(conversation: Conversation, body: unknown): AgentContext {
    const agent = this.agentOf(conversation);
    if (agent.kind !== 'side' && this.dialect.isCompaction?.(body)) return { kind: 'compaction', of: agent };
    return conversation.toolNames.length ? agent : { kind: 'side' };
  }

  /**
   * A compacted conversation starts with the summary the script gave, so it continues that conversation.
   * Then subagent prompts: a subagent's first message may quote the task, never the other way round.
   */
  private agentOf(conversation: Conversation): AgentContext {
    const summary = this.summaries.find((known) => conversation.firstUserText.includes(known.text));
    if (summary) return summary.context;
    const prompts = this.calls.map((issued) => this.dialect.subagentPrompt(issued)).filter((p): p is string => !!p);
    const prompt = prompts.find((candidate) => conversation.firstUserText.includes(candidate));
    if (prompt) return { kind: 'subagent', prompt };
    return conversation.firstUserText.includes(this.mainPrompt) ? { kind: 'main' } : { kind: 'side' };
  }

  /** How many compactions the conversation went through: 1 + the index of the latest summary it starts with. */
  private compactionsOf(conversation: Conversation): number {
    let count = 0;
    this.summaries.forEach((known, index) => {
      if (conversation.firstUserText.includes(known.text)) count = index + 1;
    });
    return count;
  }

  private async nextReply(context: AgentContext, conversation: Conversation, raw: string): Promise<ModelReply> {
    const isLoad = (id: string): boolean => id.includes(`_${LOAD_TAG}_`);
    const scripted = conversation.assistantTurns.filter((turn) => !turn.calls.length || !turn.calls.every((c) => isLoad(c.id)));
    const previous = scripted[scripted.length - 1]?.calls.map((c) => c.id) ?? [];
    const lastResults = conversation.toolResults.filter((result) => previous.includes(result.id));
    const compactions = this.compactionsOf(conversation);
    const key = `${JSON.stringify(context)}\u0000${compactions}\u0000${scripted.length}`;
    let pending = this.replies.get(key);
    if (!pending) {
      const turn = { context, step: scripted.length, compactions, conversation, lastResults };
      pending = Promise.resolve().then(() => this.script(turn));
      if (context.kind === 'compaction') {
        const of = context.of;
        pending = pending.then((reply) => {
          // Claude Code keeps only what a <summary> block holds, when there is one.
          const text = 'text' in reply ? (/<summary>([\s\S]*?)<\/summary>/.exec(reply.text)?.[1] ?? reply.text).trim() : '';
          if (text) this.summaries.push({ text, context: of });
          return reply;
        });
      }
      this.replies.set(key, pending);
    }
    let reply: Reply;
    try {
      reply = await pending;
    } catch (error) {
      this.scriptErrors.push(error instanceof Error ? error.stack ?? error.message : String(error));
      return { text: 'The test script failed.', calls: [] };
    }
    const usage = reply.inputTokens === undefined ? {} : { inputTokens: reply.inputTokens };
    if ('text' in reply) return { text: reply.text, calls: [], ...usage };
    return { text: '', calls: this.resolveCalls(context, conversation, raw, reply.calls, scripted.length, compactions), ...usage };
  }

  /**
   * Gives ids and CLI names to the script's calls. A tool the request does not declare is first loaded (one
   * turn for all such tools), then called directly if the CLI now declares it, or through the CLI's bridge.
   * A tool still missing after that is called by its CLI name anyway: the CLI's error is what the test sees.
   */
  private resolveCalls(context: AgentContext, conversation: Conversation, raw: string, calls: ScriptCall[], step: number, compactions: number): IssuedCall[] {
    // Ids stay unique when steps count again from 0 after a compaction.
    const tag = `${context.kind === 'subagent' ? `sub${this.subagentIndex(context.prompt)}` : 'main'}${compactions ? `c${compactions}` : ''}`;
    const prefix = this.dialect.api === 'anthropic' ? 'toolu' : 'call';
    const loads = conversation.assistantTurns.flatMap((turn) => turn.calls.filter((c) => c.id.includes(`_${LOAD_TAG}_`)));
    const wasLoaded = (name: string): boolean => loads.some((l) => JSON.stringify(l.input).includes(name));
    const hidden = calls.map((c) => (resolveName(c.tool, conversation.toolNames) ? undefined : cliName(c.tool, raw)));
    const toLoad = [...new Set(hidden.filter((name): name is string => !!name && !wasLoaded(name)))];
    const load = toLoad.length ? this.dialect.loadCall(conversation, toLoad) : undefined;
    const issued: IssuedCall[] = load
      ? [{ id: `${prefix}_${tag}_${LOAD_TAG}_${step}`, name: load.tool, tool: load.tool, input: load.input, context, loader: true }]
      : calls.map((c, i) => {
          const id = `${prefix}_${tag}_${step}_${i}`;
          const name = hidden[i];
          const bridged = name ? this.dialect.bridgeCall(conversation, name, c.input) : undefined;
          if (bridged) return { id, name: bridged.tool, tool: c.tool, input: bridged.input, context, loader: false };
          return { id, name: name ?? resolveName(c.tool, conversation.toolNames)!, tool: c.tool, input: c.input, context, loader: false };
        });
    for (const each of issued) {
      const same = this.calls.findIndex((known) => known.id === each.id);
      if (same >= 0) this.calls[same] = each;
      else this.calls.push(each);
    }
    return issued;
  }

  private subagentIndex(prompt: string): number {
    const prompts = [...new Set(this.calls.map((issued) => this.dialect.subagentPrompt(issued)).filter(Boolean))];
    return prompts.indexOf(prompt);
  }
}

/** The name a CLI gives an MCP server's tool it has not declared yet, as its prompt lists it (`mcp__<server>__<tool>`). */
function cliName(tool: string, rawBody: string): string {
  return rawBody.match(new RegExp(`mcp__[A-Za-z0-9_-]+?__${tool}\\b`))?.[0] ?? tool;
}

/**
 * The CLI's name for a server's tool: the same name, or the name with the CLI's MCP prefix (`mcp__<server>__`;
 * Gemini CLI's `mcp_<server>_`, whose server names hold no `_`).
 */
export function resolveName(tool: string, offered: string[]): string | undefined {
  return offered.find((name) => name === tool) ?? offered.find((name) => name.endsWith(`__${tool}`)) ?? offered.find((name) => /^mcp_[^_]+_(.+)$/.exec(name)?.[1] === tool);
}
