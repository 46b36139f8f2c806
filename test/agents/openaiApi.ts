/**
 * OpenAI-compatible chat completions (`POST …/chat/completions`) as Qwen Code calls them, played by a script:
 * requests are read into a {@link Conversation}; replies are one `chat.completion` object, or, when the request
 * streams, `chat.completion.chunk` events (role and text, then each tool call whole, then finish_reason and
 * usage) closed by `data: [DONE]`.
 */
import type * as http from 'http';
import { type Conversation, type ModelReply, type ToolCall, textOf } from './conversation';

interface WireCall {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}
interface Message {
  role: string;
  content?: unknown;
  tool_calls?: WireCall[];
  tool_call_id?: string;
}
interface Body {
  model?: string;
  stream?: boolean;
  messages?: Message[];
  tools?: { function?: { name: string } }[];
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

export function parseOpenAi(body: Body): Conversation {
  const messages = body.messages ?? [];
  return {
    api: 'openai',
    model: body.model ?? '',
    stream: body.stream === true,
    system: messages.filter((m) => m.role === 'system').map((m) => textOf(m.content)).join('\n'),
    firstUserText: textOf(messages.find((m) => m.role === 'user')?.content),
    toolNames: (body.tools ?? []).map((tool) => tool.function?.name ?? '').filter(Boolean),
    assistantTurns: messages
      .filter((m) => m.role === 'assistant')
      .map((m) => ({
        text: textOf(m.content),
        calls: (m.tool_calls ?? []).map((call): ToolCall => ({ id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) })),
      })),
    toolResults: messages
      .filter((m) => m.role === 'tool')
      .map((m) => ({ id: m.tool_call_id ?? '', text: textOf(m.content), isError: false })),
  };
}

const wireCalls = (calls: ToolCall[]): (WireCall & { index: number })[] =>
  calls.map((call, index) => ({ index, id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } }));

export function writeOpenAiReply(res: http.ServerResponse, conversation: Conversation, reply: ModelReply, requestBody: unknown, serial: number): void {
  const base = { id: `chatcmpl-script-${serial}`, created: Math.floor(Date.now() / 1000), model: conversation.model };
  const finish = reply.calls.length ? 'tool_calls' : 'stop';
  const prompt_tokens = Math.ceil(JSON.stringify(requestBody).length / 4);
  const completion_tokens = Math.ceil(JSON.stringify(reply).length / 4);
  const usage = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  if (!conversation.stream) {
    const message = { role: 'assistant', content: reply.text || null, ...(reply.calls.length ? { tool_calls: wireCalls(reply.calls).map(({ index: _index, ...call }) => call) } : {}) };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (choice: object | undefined, extra: object = {}): void =>
    void res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: choice ? [{ index: 0, ...choice }] : [], ...extra })}\n\n`);
  chunk({ delta: { role: 'assistant', content: reply.text }, finish_reason: null });
  if (reply.calls.length) chunk({ delta: { tool_calls: wireCalls(reply.calls) }, finish_reason: null });
  chunk({ delta: {}, finish_reason: finish }, { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}
