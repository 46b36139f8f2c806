/**
 * A tiny stdio MCP server that reports what an agent CLI gives the MCP servers it starts. Its one tool,
 * `probe`, returns as JSON the named environment variables of this process (null when unset), the `_meta`
 * the client sent with the call (which tells whether a server can know which agent or tool call asked), the
 * name the client gave in `initialize`, the server's process id and the time of the call (ms since the epoch).
 * `--description-length N` pads the tool's description to N characters, to see how much of it the CLI passes
 * on to the model. Run as `node probeServer.js [--description-length N]`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const PURPOSE = 'Returns the named environment variables of this MCP server process and the _meta of the call, as JSON.';
const lengthArg = process.argv.indexOf('--description-length');
const length = lengthArg > 0 ? Number(process.argv[lengthArg + 1]) : 0;
const description = length > PURPOSE.length ? `${PURPOSE} ${'.'.repeat(length)}`.slice(0, length) : PURPOSE;

const server = new Server({ name: 'probe', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: 'probe', description, inputSchema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const names = (request.params.arguments?.names ?? []) as string[];
  const env = Object.fromEntries(names.map((name) => [name, process.env[name] ?? null]));
  return { content: [{ type: 'text', text: JSON.stringify({ env, meta: request.params._meta ?? null, client: server.getClientVersion()?.name ?? null, pid: process.pid, time: Date.now() }) }] };
});
void server.connect(new StdioServerTransport());
