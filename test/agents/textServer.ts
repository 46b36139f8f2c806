/**
 * A tiny stdio MCP server whose one tool, `text`, returns a text of exactly `length` characters, to see how much
 * of a long result a CLI shows its model. The text is lines of 100 characters (the newline included):
 * `kind: "lines"` (default) numbers them (`L00001 abcdefghij…\n`), so where a cut falls can be read off;
 * `"utf8"` fills them with `é` (two bytes each), which tells a limit in bytes from one in characters.
 * `isError: true` returns the text as an error result (`isError` in the MCP result).
 * Run as `node textServer.js`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const LINE_CHARS = 100;

/** `length` characters of numbered ASCII lines, or of lines of `é`. */
export function textOfLength(length: number, kind: 'lines' | 'utf8' = 'lines'): string {
  let text = '';
  for (let line = 1; text.length < length; line++) {
    text += kind === 'utf8' ? `${'é'.repeat(LINE_CHARS - 1)}\n` : `L${String(line).padStart(5, '0')} ${'abcdefghij'.repeat(10)}`.slice(0, LINE_CHARS - 1) + '\n';
  }
  return text.slice(0, length);
}

if (require.main === module) {
  const server = new Server({ name: 'text', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: 'text',
        description: 'Returns a text of the given length (lines of 100 characters).',
        inputSchema: { type: 'object', properties: { length: { type: 'number' }, kind: { type: 'string', enum: ['lines', 'utf8'] }, isError: { type: 'boolean' } }, required: ['length'] },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = (request.params.arguments ?? {}) as { length?: number; kind?: 'lines' | 'utf8'; isError?: boolean };
    return { content: [{ type: 'text', text: textOfLength(Number(args.length ?? 0), args.kind) }], isError: args.isError === true };
  });
  void server.connect(new StdioServerTransport());
}
