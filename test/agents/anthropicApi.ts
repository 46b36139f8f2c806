/**
 * The Anthropic Messages API as Claude Code calls it (`POST /v1/messages`, usually `stream: true`), played by a
 * script: requests are read into a {@link Conversation}, replies are written as the server-sent event sequence
 * the API documents (message_start, one content block per text or tool_use with its deltas, message_delta
 * carrying stop_reason, message_stop) or as one JSON message when the request does not stream.
 * Token counts are rough (characters / 4): Claude Code only displays and budgets with them (a reply may report
 * another prompt size, to make Claude Code compact).
 */
import type * as http from 'http';
import { type Conversation, type ModelReply, type ToolCall, type ToolResultSeen, textOf } from './conversation';

interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}
interface Message {
  role: string;
  content: string | Block[];
}
interface Body {
  model?: string;
  stream?: boolean;
  system?: string | Block[];
  messages?: Message[];
  tools?: { name: string; defer_loading?: boolean }[];
}

const blocksOf = (message: Message): Block[] => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);

export function parseAnthropic(body: Body): Conversation {
  const messages = body.messages ?? [];
  const firstUser = messages.find((message) => message.role === 'user');
  const assistantTurns = messages
    .filter((message) => message.role === 'assistant')
    .map((message) => {
      const blocks = blocksOf(message);
      const calls: ToolCall[] = blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id!, name: b.name!, input: b.input ?? {} }));
      return { text: blocks.filter((b) => b.type === 'text').map((b) => b.text).join(''), calls };
    });
  const toolResults: ToolResultSeen[] = messages
    .filter((message) => message.role === 'user')
    .flatMap(blocksOf)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ id: block.tool_use_id!, text: textOf(block.content), isError: block.is_error === true }));
  // A deferred tool becomes callable once a tool result references it (the API expands the reference).
  const referenced = new Set(
    messages
      .flatMap(blocksOf)
      .flatMap((block) => (block.type === 'tool_result' && Array.isArray(block.content) ? (block.content as Block[]) : []))
      .filter((part) => part.type === 'tool_reference')
      .map((part) => (part as { tool_name?: string }).tool_name),
  );
  return {
    api: 'anthropic',
    model: body.model ?? '',
    stream: body.stream === true,
    system: textOf(body.system),
    firstUserText: firstUser ? textOf(blocksOf(firstUser)) : '',
    toolNames: (body.tools ?? []).filter((tool) => !tool.defer_loading || referenced.has(tool.name)).map((tool) => tool.name),
    assistantTurns,
    toolResults,
  };
}

const estimateTokens = (body: unknown): number => Math.ceil(JSON.stringify(body ?? '').length / 4);

function contentBlocks(reply: ModelReply): Block[] {
  const blocks: Block[] = reply.text ? [{ type: 'text', text: reply.text }] : [];
  for (const call of reply.calls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  return blocks;
}

export function writeAnthropicReply(res: http.ServerResponse, conversation: Conversation, reply: ModelReply, requestBody: unknown, serial: number): void {
  const id = `msg_script_${serial}`;
  const stopReason = reply.calls.length ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: reply.inputTokens ?? estimateTokens(requestBody), output_tokens: estimateTokens({ text: reply.text, calls: reply.calls }) };
  const headers = { 'request-id': `req_script_${serial}` };
  if (!conversation.stream) {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: conversation.model, content: contentBlocks(reply), stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type: string, data: object): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { id, type: 'message', role: 'assistant', model: conversation.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  contentBlocks(reply).forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      // Two fragments, so the client's assembly of partial JSON is exercised as with a real stream.
      const json = JSON.stringify(block.input);
      const cut = Math.floor(json.length / 2);
      for (const partial_json of [json.slice(0, cut), json.slice(cut)]) send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', {});
  res.end();
}

/** `POST /v1/messages/count_tokens`: an estimate is enough. */
export function writeTokenCount(res: http.ServerResponse, requestBody: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ input_tokens: estimateTokens(requestBody) }));
}
