/**
 * The scripted model server on its own, over HTTP, for the paths the pinned CLIs did not take in the agent
 * runs: side requests (no tools, or another conversation), non-streaming replies, token counts, unknown
 * routes, the replay of a step after the harness loaded a deferred tool, the Responses API's events, and the
 * Gemini API's non-streaming reply.
 */
import * as assert from 'assert';
import { claudeDialect } from './claudeCode';
import { codexDialect } from './codexCli';
import { geminiDialect } from './geminiCli';
import { type Dialect, ModelServer } from './modelServer';
import { qwenDialect } from './qwenCode';
import { call, type Script, say, steps } from './script';

const PROMPT = 'the main prompt';
const tools = (...names: string[]) => names.map((name) => ({ name, description: name, input_schema: { type: 'object' } }));
const anthropicBody = (extra: object) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: PROMPT }], tools: tools('Read'), ...extra });

async function withServer(dialect: Dialect, script: Script, run: (post: (path: string, body: object) => Promise<Response>, server: ModelServer) => Promise<void>) {
  const server = new ModelServer(dialect, script, PROMPT);
  const base = await server.start();
  try {
    await run((path, body) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), server);
  } finally {
    await server.close();
  }
}

/** The `data:` payloads of a server-sent event stream. */
const events = (text: string): { type?: string; [key: string]: unknown }[] =>
  text.split('\n').filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]').map((line) => JSON.parse(line.slice(6)));

suite('the scripted model server', () => {
  test('answers a request without tools, or from another conversation, with a short text and never asks the script', async () => {
    let asked = 0;
    await withServer(claudeDialect, () => (asked++, say('scripted')), async (post, server) => {
      const noTools = (await (await post('/v1/messages', anthropicBody({ tools: [] }))).json()) as { content: { text: string }[] };
      const other = (await (await post('/v1/messages', anthropicBody({ messages: [{ role: 'user', content: 'write a title' }] }))).json()) as { content: { text: string }[] };
      assert.deepStrictEqual([noTools.content[0].text, other.content[0].text], ['OK', 'OK']);
      assert.deepStrictEqual(server.requests.map((r) => r.context?.kind), ['side', 'side']);
    });
    assert.strictEqual(asked, 0);
  });

  test('streams a tool call as the Messages API event sequence, and replies in JSON when not streaming', async () => {
    await withServer(claudeDialect, steps([call('Read', { file_path: '/a' })]), async (post) => {
      const stream = events(await (await post('/v1/messages', anthropicBody({ stream: true }))).text());
      assert.deepStrictEqual(stream.map((e) => e.type), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      const json = stream.filter((e) => e.type === 'content_block_delta').map((e) => (e.delta as { partial_json: string }).partial_json).join('');
      assert.deepStrictEqual(JSON.parse(json), { file_path: '/a' });
      assert.strictEqual((stream[5].delta as { stop_reason: string }).stop_reason, 'tool_use');
      const plain = (await (await post('/v1/messages', anthropicBody({}))).json()) as { content: { type: string; input: object }[]; stop_reason: string };
      assert.deepStrictEqual([plain.content[0].type, plain.content[0].input, plain.stop_reason], ['tool_use', { file_path: '/a' }, 'tool_use']);
    });
  });

  test('counts tokens, and answers an unknown route with 404', async () => {
    await withServer(claudeDialect, () => say('x'), async (post) => {
      const counted = (await (await post('/v1/messages/count_tokens', anthropicBody({}))).json()) as { input_tokens: number };
      assert.ok(counted.input_tokens > 0);
      assert.strictEqual((await post('/v1/elsewhere', {})).status, 404);
    });
  });

  test('loads a deferred tool with ToolSearch first, then replays the same step (the script is asked once)', async () => {
    let asked = 0;
    const script: Script = (turn) => (asked++, turn.step === 0 ? call('readgate_read', { filePath: 'a' }) : say('done'));
    await withServer(claudeDialect, script, async (post, server) => {
      const system = 'Deferred tools: mcp__readgate__readgate_read';
      const first = (await (await post('/v1/messages', anthropicBody({ system, tools: tools('ToolSearch') }))).json()) as { content: { id: string; name: string; input: object }[] };
      assert.deepStrictEqual([first.content[0].name, first.content[0].input], ['ToolSearch', { query: 'select:mcp__readgate__readgate_read' }]);
      const loaded = [
        { role: 'user', content: PROMPT },
        { role: 'assistant', content: [{ type: 'tool_use', id: first.content[0].id, name: 'ToolSearch', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: first.content[0].id, content: [{ type: 'tool_reference', tool_name: 'mcp__readgate__readgate_read' }] }] },
      ];
      const deferred = [...tools('ToolSearch'), { ...tools('mcp__readgate__readgate_read')[0], defer_loading: true }];
      const second = (await (await post('/v1/messages', anthropicBody({ system, tools: deferred, messages: loaded }))).json()) as { content: { name: string }[] };
      assert.strictEqual(second.content[0].name, 'mcp__readgate__readgate_read');
      assert.deepStrictEqual(server.toolResults().map((r) => r.tool), ['readgate_read']);
    });
    assert.strictEqual(asked, 1);
  });

  test('plays OpenAI chat completions: a streamed tool call closed by [DONE], and a JSON reply; Qwen\'s deferred tools go through tool_call', async () => {
    const body = (extra: object) => ({ model: 'm', messages: [{ role: 'user', content: PROMPT }], tools: [{ type: 'function', function: { name: 'read_file' } }], ...extra });
    await withServer(qwenDialect, steps([call('read_file', { path: 'a' })]), async (post) => {
      const text = await (await post('/v1/chat/completions', body({ stream: true }))).text();
      assert.ok(text.trimEnd().endsWith('data: [DONE]'));
      const chunks = events(text) as { choices: { delta: { tool_calls?: { function: { name: string; arguments: string } }[] }; finish_reason: string | null }[] }[];
      const called = chunks.flatMap((c) => c.choices).flatMap((c) => c.delta.tool_calls ?? []);
      assert.deepStrictEqual(called.map((c) => [c.function.name, JSON.parse(c.function.arguments)]), [['read_file', { path: 'a' }]]);
      assert.strictEqual(chunks.at(-1)?.choices[0].finish_reason, 'tool_calls');
      const plain = (await (await post('/v1/chat/completions', body({}))).json()) as { choices: { message: { tool_calls: unknown[] } }[] };
      assert.strictEqual(plain.choices[0].message.tool_calls.length, 1);
    });
    const loadedBefore = [
      { role: 'user', content: `${PROMPT}\n"mcp__readgate__readgate_read": "Read a file"` },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_main_load_0', type: 'function', function: { name: 'tool_search', arguments: '{"query":"select:mcp__readgate__readgate_read"}' } }] },
      { role: 'tool', tool_call_id: 'call_main_load_0', content: '<functions>…</functions>' },
    ];
    await withServer(qwenDialect, steps([call('readgate_read', { filePath: 'a' })]), async (post) => {
      const reply = (await (await post('/v1/chat/completions', body({ messages: loadedBefore, tools: [{ type: 'function', function: { name: 'tool_search' } }, { type: 'function', function: { name: 'tool_call' } }] }))).json()) as {
        choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
      };
      const bridged = reply.choices[0].message.tool_calls[0].function;
      assert.deepStrictEqual([bridged.name, JSON.parse(bridged.arguments)], ['tool_call', { name: 'mcp__readgate__readgate_read', arguments: { filePath: 'a' } }]);
    });
  });

  test('plays the Responses API: namespaced tools named <namespace>__<tool>, a call streamed back with its namespace, results read from function_call_output', async () => {
    const namespace = { type: 'namespace', name: 'mcp__readgate', tools: [{ type: 'function', name: 'readgate_read' }] };
    const input = (extra: object[] = []) => [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'be brief' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>…</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPT }] },
      ...extra,
    ];
    const body = (extra: object) => ({ model: 'm', stream: true, input: input(), tools: [{ type: 'function', name: 'exec_command' }, namespace, { type: 'tool_search' }], ...extra });
    await withServer(codexDialect, steps([call('readgate_read', { filePath: 'a' }), say('done')]), async (post, server) => {
      const stream = events(await (await post('/v1/responses', body({}))).text()) as { type: string; item?: Record<string, unknown>; response?: { usage?: object; output: object[] } }[];
      assert.deepStrictEqual(stream.map((e) => e.type), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done', 'response.completed']);
      const item = stream[6].item!;
      assert.deepStrictEqual([item.type, item.namespace, item.name, JSON.parse(String(item.arguments))], ['function_call', 'mcp__readgate', 'readgate_read', { filePath: 'a' }]);
      assert.ok(stream[7].response?.usage);
      assert.deepStrictEqual(server.requests[0].conversation?.toolNames, ['exec_command', 'mcp__readgate__readgate_read', 'tool_search']);
      assert.strictEqual(server.requests[0].context?.kind, 'main');
      const answered = input([
        { type: 'function_call', call_id: item.call_id, namespace: 'mcp__readgate', name: 'readgate_read', arguments: '{"filePath":"a"}' },
        { type: 'function_call_output', call_id: item.call_id, output: [{ type: 'input_text', text: 'Wall time: 0.0100 seconds\nOutput:' }, { type: 'input_text', text: 'a.txt' }] },
      ]);
      const plain = (await (await post('/v1/responses', body({ stream: false, input: answered }))).json()) as { output: { type: string; content: { text: string }[] }[] };
      assert.deepStrictEqual([plain.output[0].type, plain.output[0].content[0].text], ['message', 'done']);
      assert.deepStrictEqual(server.toolResults().map((r) => [r.tool, r.name, r.result?.parts]), [['readgate_read', 'mcp__readgate__readgate_read', ['Wall time: 0.0100 seconds\nOutput:', 'a.txt']]]);
    });
  });

  test('plays the Gemini API: MCP tools named mcp_<server>_<tool>, a call as a functionCall part with its id, a streamed reply as one event, results read from functionResponse parts', async () => {
    type Reply = { candidates: { content: { parts: { text?: string; functionCall?: { id: string; name: string; args: object } }[] } }[]; usageMetadata: object };
    const user = { role: 'user', parts: [{ text: PROMPT }] };
    const body = (contents: object[]) => ({ contents, systemInstruction: { parts: [{ text: 'be brief' }] }, tools: [{ functionDeclarations: [{ name: 'read_file' }, { name: 'mcp_text_text' }] }] });
    await withServer(geminiDialect, steps([call('text', { length: 5 }), say('done')]), async (post, server) => {
      const plain = (await (await post('/v1beta/models/gemini-2.5-flash:generateContent', body([user]))).json()) as Reply;
      const functionCall = plain.candidates[0].content.parts[0].functionCall!;
      assert.deepStrictEqual([functionCall.name, functionCall.args], ['mcp_text_text', { length: 5 }]);
      assert.ok(plain.usageMetadata);
      const answered = [user, { role: 'model', parts: [{ functionCall }] }, { role: 'user', parts: [{ functionResponse: { id: functionCall.id, name: functionCall.name, response: { output: 'hello' } } }] }];
      const stream = events(await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body(answered))).text()) as unknown as Reply[];
      assert.deepStrictEqual(stream.map((event) => event.candidates[0].content.parts), [[{ text: 'done' }]]);
      assert.deepStrictEqual(server.requests.map((r) => [r.context?.kind, r.conversation?.model, r.conversation?.stream]), [['main', 'gemini-2.5-flash', false], ['main', 'gemini-2.5-flash', true]]);
      assert.deepStrictEqual(server.toolResults().map((r) => [r.tool, r.name, r.result?.text]), [['text', 'mcp_text_text', 'hello']]);
    });
  });
});
