/**
 * A tiny stdio MCP server for the agent tests: its one tool, `env_probe`, returns the values of the
 * environment variables it is asked about, as this process sees them. It tells whether an agent CLI passes a
 * variable (such as MAX_MCP_OUTPUT_TOKENS) to the MCP servers it starts. Run as `node envProbeServer.js`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'env-probe', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: 'env_probe',
      description: 'Returns the named environment variables of this MCP server process as JSON (null when unset).',
      inputSchema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } }, required: ['names'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const names = (request.params.arguments?.names ?? []) as string[];
  const values = Object.fromEntries(names.map((name) => [name, process.env[name] ?? null]));
  return { content: [{ type: 'text', text: JSON.stringify(values) }] };
});
void server.connect(new StdioServerTransport());
