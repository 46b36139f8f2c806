/**
 * One MCP server per MCP session: lists the five tools and runs each call through `call`, which the surface
 * (the extension, or the headless server) binds to its guard session. A refusal is a result with
 * `isError: true` whose text starts with its code, exactly the text the language model tools throw; a tool that
 * does not exist is a JSON-RPC error (-32602), as MCP's tools section asks. A call whose request carries a
 * progress token gets a `progress` report, for the surface to say what it waits for (waitProgress.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, type Implementation, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_INSTRUCTIONS, type ToolOutcome } from '../core/index';
import { profileOf } from './clientProfiles';
import { withoutControls } from './controlCharacters';
import { protocolErrors, thrown } from './protocolErrors';
import { MCP_TOOLS, READGATE_VERSION } from './toolDefinitions';
import { type ProgressReport, progressReport } from './waitProgress';

const SERVED = MCP_TOOLS.map((tool) => tool.name);

export interface ToolServerOptions {
  /**
   * Runs one tool call; `signal` aborts when the client cancels the request. `progress` is there when the
   * request asked for progress (a `progressToken`); it must not be used after the call returned. `meta` is the
   * request's `_meta` (a client's call id names the call's agent context: `agentContexts.ts`).
   */
  call(name: string, input: unknown, signal: AbortSignal, progress?: ProgressReport, meta?: Record<string, unknown>): Promise<ToolOutcome>;
  /** The client said who it is (`initialize`); the surface labels the session with it. */
  onClient?(client: Implementation): void;
  /** Said to the client in `initialize`: how to use the tools (the core's `MCP_INSTRUCTIONS` unless given). */
  instructions?: string;
}

export function toCallToolResult(outcome: ToolOutcome): CallToolResult {
  return outcome.ok
    ? { content: [{ type: 'text', text: outcome.text }] }
    : { content: [{ type: 'text', text: `${outcome.code}: ${outcome.message}` }], isError: true };
}

export function createToolServer(options: ToolServerOptions): Server {
  const server = new Server(
    { name: 'readgate', title: 'ReadGate', version: READGATE_VERSION },
    { capabilities: { tools: {} }, instructions: options.instructions ?? MCP_INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    if (!SERVED.includes(name)) throw thrown(protocolErrors.unknownTool(name, SERVED));
    const progress = progressReport(request.params._meta?.progressToken, (notification) => extra.sendNotification(notification));
    return toCallToolResult(await options.call(name, request.params.arguments ?? {}, extra.signal, progress, request.params._meta));
  });
  server.oninitialized = () => {
    const client = server.getClientVersion();
    if (client) options.onClient?.(client);
  };
  return server;
}

/** One line of at most `max` characters: a client's name must not bring line breaks or invisible characters. */
const oneLine = (text: unknown, max: number): string =>
  typeof text === 'string' ? withoutControls(text).replace(/\s+/g, ' ').trim().slice(0, max).trim() : '';

/**
 * How a client is named in the Sessions view, the review panel and refusals: "Claude Code 2.0.14". Its title when
 * it gives one, else the name people know it by when ReadGate knows the client (`claude-code` is Claude Code),
 * else the name it gives.
 */
export function clientLabel(client: Implementation | undefined): string | undefined {
  if (!client) return undefined;
  const given = oneLine(client.name, 60);
  // "Cline / Roo Code" names two clients: there the client's own name is the better one.
  const known = given ? profileOf(given)?.label.split(' (')[0] : undefined;
  const name = oneLine(client.title, 60) || (known && !known.includes('/') ? known : given);
  if (!name) return undefined;
  const version = oneLine(client.version, 20);
  return version && !name.includes(version) ? `${name} ${version}` : name;
}
