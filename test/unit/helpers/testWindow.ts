/**
 * A stand-in for a VS Code window, for tests of the stdio bridge: ReadGate's HTTP MCP server on a headless guard,
 * published in a discovery folder as the extension does, recording the clients that said who they are and the
 * MCP sessions it opened and closed.
 */
import { createGuard, parseToolCall } from '../../../src/core/index';
import { createToolServer, publishWindow, serveHttp, type HttpMcpServer } from '../../../src/mcp/index';

export interface TestWindow {
  server: HttpMcpServer;
  /** Each client's `clientInfo.name`, in order. */
  clients: string[];
  /** MCP session ids, as opened and as closed (DELETE, idleness, eviction, shutdown). */
  opened: string[];
  closed: string[];
  close(): Promise<void>;
}

export async function openWindow(root: string, discovery: string, token: string, id: string): Promise<TestWindow> {
  const guard = createGuard({ roots: [root] });
  const clients: string[] = [];
  const opened: string[] = [];
  const closed: string[] = [];
  const server = await serveHttp({
    token,
    openSession: (sessionId) => {
      opened.push(sessionId);
      const session = guard.session(sessionId);
      const mcp = createToolServer({ call: async (name, input, signal) => { const call = parseToolCall(name, input); return call.ok ? call.run(session, signal) : call; }, onClient: (client) => clients.push(client.name) });
      return { server: mcp, close: () => { closed.push(sessionId); guard.dropSession(sessionId); } };
    },
  });
  const published = publishWindow({ version: 1, pid: process.pid, url: server.url, token, folders: [root], name: `window ${id}`, started: Date.now() }, id, discovery);
  return { server, clients, opened, closed, close: async () => { published.remove(); await server.close(); await guard.dispose(); } };
}
