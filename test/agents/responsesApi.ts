/**
 * The OpenAI Responses API (`POST …/responses`) as Codex CLI calls it (`wire_api = "responses"`, always
 * streaming), played by a script. Requests are read into a {@link Conversation}: the `input` items hold the
 * developer and user messages, the assistant's earlier `message` and `function_call` items and the CLI's
 * `function_call_output` items (the tool results the model is shown). Replies are written as the server-sent
 * events the API documents: `response.created`, then per output item `response.output_item.added`, its deltas
 * (`response.output_text.delta`, `response.function_call_arguments.delta`) and `response.output_item.done`,
 * then `response.completed` carrying the whole response with its usage; or as one response object when the
 * request does not stream.
 *
 * Tools may come grouped in namespaces (`{ type: "namespace", name: "mcp__readgate", tools: [...] }`: Codex
 * declares each MCP server's tools so). A namespaced tool is named here `<namespace>__<name>`
 * (`mcp__readgate__readgate_read`, the name Codex's hooks give it), and a call of it is written back as a
 * `function_call` with `namespace` and the tool's own `name`, as Codex expects.
 */
import type * as http from 'http';
import type { Conversation, ModelReply, ToolCall, ToolResultSeen } from './conversation';

interface Part {
  type?: string;
  text?: unknown;
}
interface Item {
  type?: string;
  role?: string;
  content?: string | Part[];
  name?: string;
  namespace?: string;
  arguments?: string;
  call_id?: string;
  output?: string | Part[];
}
interface Tool {
  type?: string;
  name?: string;
  tools?: Tool[];
}
interface Body {
  model?: string;
  stream?: boolean;
  instructions?: string;
  input?: string | Item[];
  tools?: Tool[];
}

/** Each text part's text (other parts as `[type]`). */
function partsOf(content: string | Part[] | undefined): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.map((part) => (typeof part.text === 'string' ? part.text : `[${part.type ?? 'part'}]`));
}

const textOfItem = (item: Item): string => partsOf(item.content).join('\n');

/** The tools a request offers, named as scripts and hooks see them, with where each is declared. */
export function offeredTools(body: Body): Map<string, { name: string; namespace?: string; freeform?: boolean }> {
  const offered = new Map<string, { name: string; namespace?: string; freeform?: boolean }>();
  for (const tool of body.tools ?? []) {
    if (tool.type === 'namespace' && tool.name) {
      for (const inner of tool.tools ?? []) if (inner.name) offered.set(`${tool.name}__${inner.name}`, { name: inner.name, namespace: tool.name });
    } else if (tool.name) offered.set(tool.name, tool.type === 'custom' ? { name: tool.name, freeform: true } : { name: tool.name });
    // Built-in tools (`tool_search`, `web_search`) are named by their type.
    else if (tool.type) offered.set(tool.type, { name: tool.type });
  }
  return offered;
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(text ?? '{}') as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

/** Whether an item is the assistant's (the model's) output rather than input the CLI gave. */
const isAssistantItem = (item: Item): boolean =>
  (item.type === 'message' && item.role === 'assistant') || item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'reasoning';

export function parseResponses(body: Body): Conversation {
  const items: Item[] = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input ?? [];
  const messages = items.filter((item) => item.type === 'message' || item.type === undefined);
  // Codex opens a conversation with several user messages (its environment context, AGENTS.md, then the
  // prompt): all the user text before the model's first output counts as the first user message.
  const firstOutput = items.findIndex(isAssistantItem);
  const opening = (firstOutput < 0 ? items : items.slice(0, firstOutput)).filter((item) => item.role === 'user');
  const assistantTurns: Conversation['assistantTurns'] = [];
  let turn: Conversation['assistantTurns'][number] | undefined;
  for (const item of items) {
    if (!isAssistantItem(item)) {
      turn = undefined;
      continue;
    }
    if (!turn) assistantTurns.push((turn = { text: '', calls: [] }));
    if (item.type === 'message') turn.text += textOfItem(item);
    else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const name = item.namespace ? `${item.namespace}__${item.name}` : item.name ?? '';
      turn.calls.push({ id: item.call_id ?? '', name, input: item.type === 'function_call' ? parseArguments(item.arguments) : { input: item.arguments } });
    }
  }
  const toolResults: ToolResultSeen[] = items
    .filter((item) => item.type === 'function_call_output' || item.type === 'custom_tool_call_output')
    .map((item) => {
      const parts = partsOf(item.output);
      return { id: item.call_id ?? '', text: parts.join('\n'), parts, isError: false };
    });
  return {
    api: 'responses',
    model: body.model ?? '',
    stream: body.stream === true,
    system: [body.instructions ?? '', ...messages.filter((m) => m.role === 'developer' || m.role === 'system').map(textOfItem)].filter(Boolean).join('\n'),
    firstUserText: opening.map(textOfItem).join('\n'),
    toolNames: [...offeredTools(body).keys()],
    assistantTurns,
    toolResults,
  };
}

const estimateTokens = (value: unknown): number => Math.ceil(JSON.stringify(value ?? '').length / 4);

/** Where a call is declared: the request's namespace for it, or, for a tool it does not offer, `mcp__<server>__<tool>` read as one. */
function wireName(name: string, offered: Map<string, { name: string; namespace?: string; freeform?: boolean }>): { name: string; namespace?: string; freeform?: boolean } {
  const known = offered.get(name);
  if (known) return known;
  const mcp = /^(mcp__.+?)__(.+)$/.exec(name);
  return mcp ? { namespace: mcp[1], name: mcp[2] } : { name };
}

export function writeResponsesReply(res: http.ServerResponse, conversation: Conversation, reply: ModelReply, requestBody: unknown, serial: number): void {
  const offered = offeredTools(requestBody as Body);
  const id = `resp_script_${serial}`;
  const created_at = Math.floor(Date.now() / 1000);
  const input_tokens = reply.inputTokens ?? estimateTokens(requestBody);
  const output_tokens = estimateTokens({ text: reply.text, calls: reply.calls });
  const usage = {
    input_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
  };
  const base = { id, object: 'response', created_at, model: conversation.model, status: 'in_progress', output: [] as object[] };
  const message = reply.text ? { id: `msg_script_${serial}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] } : undefined;
  // A freeform tool (Codex's `apply_patch` for models of its catalog) is called with its text (`input.input`).
  const calls = reply.calls.map((call: ToolCall, index) => {
    const { freeform, ...wire } = wireName(call.name, offered);
    const common = { id: `fc_script_${serial}_${index}`, status: 'completed', call_id: call.id, ...wire };
    return freeform
      ? { ...common, type: 'custom_tool_call', input: String((call.input as { input?: unknown }).input ?? ''), arguments: '' }
      : { ...common, type: 'function_call', arguments: JSON.stringify(call.input) };
  });
  const output: object[] = [...(message ? [message] : []), ...calls.map(({ arguments: args, ...call }) => (call.type === 'custom_tool_call' ? call : { ...call, arguments: args }))];
  const completed = { ...base, status: 'completed', output, usage };
  if (!conversation.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completed));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence_number = 0;
  const send = (type: string, data: object): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence_number++, ...data })}\n\n`);
  send('response.created', { response: base });
  send('response.in_progress', { response: base });
  let output_index = 0;
  if (message) {
    const item_id = message.id;
    send('response.output_item.added', { output_index, item: { ...message, status: 'in_progress', content: [] } });
    send('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    send('response.output_text.delta', { item_id, output_index, content_index: 0, delta: reply.text });
    send('response.output_text.done', { item_id, output_index, content_index: 0, text: reply.text });
    send('response.content_part.done', { item_id, output_index, content_index: 0, part: message.content[0] });
    send('response.output_item.done', { output_index, item: message });
    output_index++;
  }
  for (const call of calls) {
    if (call.type === 'custom_tool_call') {
      const { arguments: _none, ...item } = call;
      const input = String((item as { input?: string }).input ?? '');
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
      send('response.custom_tool_call_input.delta', { item_id: call.id, output_index, delta: input });
      send('response.custom_tool_call_input.done', { item_id: call.id, output_index, input });
      send('response.output_item.done', { output_index, item });
      output_index++;
      continue;
    }
    send('response.output_item.added', { output_index, item: { ...call, status: 'in_progress', arguments: '' } });
    // Two fragments, so the client's assembly of streamed arguments is exercised as with a real stream.
    const cut = Math.floor(call.arguments.length / 2);
    for (const delta of [call.arguments.slice(0, cut), call.arguments.slice(cut)]) send('response.function_call_arguments.delta', { item_id: call.id, output_index, delta });
    send('response.function_call_arguments.done', { item_id: call.id, output_index, arguments: call.arguments });
    send('response.output_item.done', { output_index, item: call });
    output_index++;
  }
  send('response.completed', { response: completed });
  res.end();
}
