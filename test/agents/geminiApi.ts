/**
 * The Gemini API (`POST …/models/<model>:generateContent`, or `:streamGenerateContent?alt=sse`) as Gemini CLI
 * calls it, played by a script. Requests are read into a {@link Conversation}: `contents` holds the user turns
 * (text, and the CLI's `functionResponse` parts: the tool results the model is shown) and the model's earlier
 * turns (text, `functionCall` parts); `tools` holds `functionDeclarations`; the model is named in the path.
 * Replies are one response object (`candidates[0].content.parts`, `finishReason`, `usageMetadata`), or, when
 * the request streams, that same object as the one server-sent event.
 *
 * Gemini CLI names an MCP server's tool `mcp_<server>_<tool>` and keeps the ids the model gave its calls, so a
 * result's `functionResponse.id` is the script's call id.
 */
import type * as http from 'http';
import type { Conversation, ModelReply, ToolCall, ToolResultSeen } from './conversation';

interface Part {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: { output?: unknown; error?: unknown } };
}
interface Content {
  role?: string;
  parts?: Part[];
}
interface Body {
  contents?: Content[];
  systemInstruction?: string | Content;
  tools?: { functionDeclarations?: { name: string }[] }[];
}

/** The model and method a request's path names (`/v1beta/models/gemini-2.5-flash:streamGenerateContent`). */
export function geminiEndpoint(path: string): { model: string; stream: boolean } | undefined {
  const match = /\/models\/([^/:?]+):(generateContent|streamGenerateContent)(?:\?|$)/.exec(path);
  return match ? { model: decodeURIComponent(match[1]), stream: match[2] === 'streamGenerateContent' } : undefined;
}

const textOfParts = (parts: Part[] | undefined): string => (parts ?? []).filter((part) => typeof part.text === 'string' && !part.thought).map((part) => part.text).join('');

function resultOf(part: Required<Pick<Part, 'functionResponse'>>['functionResponse']): ToolResultSeen {
  const response = part.response ?? {};
  if (typeof response.output === 'string') return { id: part.id ?? '', text: response.output, isError: false };
  if (typeof response.error === 'string') return { id: part.id ?? '', text: response.error, isError: true };
  return { id: part.id ?? '', text: JSON.stringify(response), isError: false };
}

export function parseGemini(body: Body, path = ''): Conversation {
  const contents = body.contents ?? [];
  const system = typeof body.systemInstruction === 'string' ? body.systemInstruction : textOfParts(body.systemInstruction?.parts);
  const endpoint = geminiEndpoint(path);
  return {
    api: 'gemini',
    model: endpoint?.model ?? '',
    stream: endpoint?.stream ?? false,
    system,
    firstUserText: textOfParts(contents.find((content) => content.role === 'user')?.parts),
    toolNames: (body.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []).map((declaration) => declaration.name),
    assistantTurns: contents
      .filter((content) => content.role === 'model')
      .map((content) => ({
        text: textOfParts(content.parts),
        calls: (content.parts ?? []).flatMap((part): ToolCall[] => (part.functionCall ? [{ id: part.functionCall.id ?? '', name: part.functionCall.name, input: part.functionCall.args ?? {} }] : [])),
      })),
    toolResults: contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse ? [resultOf(part.functionResponse)] : []))),
  };
}

export function writeGeminiReply(res: http.ServerResponse, conversation: Conversation, reply: ModelReply, requestBody: unknown): void {
  const parts: Part[] = [...(reply.text ? [{ text: reply.text }] : []), ...reply.calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.input } }))];
  const promptTokenCount = reply.inputTokens ?? Math.ceil(JSON.stringify(requestBody).length / 4);
  const candidatesTokenCount = Math.ceil(JSON.stringify(parts).length / 4);
  const response = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount },
    modelVersion: conversation.model,
  };
  if (!conversation.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
}
