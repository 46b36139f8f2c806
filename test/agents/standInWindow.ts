/**
 * A stand-in for a VS Code window with ReadGate's MCP server on, for agent CLIs that reach it through the stdio
 * bridge (`dist/mcp-bridge.js`), as the Connect an External Agent guide sets them up. Built like the window in
 * test/unit/mcp/bridge.test.ts (ReadGate's HTTP MCP server on a headless guard, published into a discovery
 * folder), and like the extension's host (src/vscode/mcp/mcpHost.ts) it honours forget markers: before each
 * tool call it looks for markers a client's hook wrote (`mcp-bridge.js --forget --client <name>`) for its
 * folder, and clears the ledger of each session of that client opened before the marker.
 */
import * as path from 'path';
import { createGuard, parseToolCall } from '../../src/core/index';
import { clientPolicy, createToolServer, ForgetWatch, type ForgetMarker, mustForget, publishWindow, serveHttp } from '../../src/mcp/index';

export interface StandInWindow {
  /** The folder to point `READGATE_DISCOVERY_DIR` at. */
  discovery: string;
  /** Each MCP client that said who it is (`clientInfo.name`), in order. */
  clients: string[];
  /** Each tool call the window received, in order, with the session that made it. */
  calls: { session: string; tool: string; input: unknown }[];
  /** Each marker that made a session forget, with the session it cleared. */
  forgotten: { session: string; marker: ForgetMarker }[];
  /** MCP session ids as they opened, and as they closed (the client's DELETE, or the window closing) with when (ms). */
  opened: string[];
  closed: { session: string; at: number }[];
  close(): Promise<void>;
}

/** Opens a window on `root`, published in `discovery`; its forget markers are read from `<discovery>/../forget`. */
export async function openStandInWindow(root: string, discovery: string): Promise<StandInWindow> {
  const guard = createGuard({ roots: [root] });
  const sessions = new Map<string, { name?: string; opened: number }>();
  const forget = new ForgetWatch(() => [root], path.join(path.dirname(discovery), 'forget'));
  const window: StandInWindow = { discovery, clients: [], calls: [], forgotten: [], opened: [], closed: [], close: async () => undefined };

  const forgetAsked = (): void => {
    for (const marker of forget.newMarkers()) {
      for (const [id, client] of sessions) {
        if (!mustForget(marker, client.name, client.opened) || !guard.hasSession(id)) continue;
        guard.session(id).clear();
        window.forgotten.push({ session: id, marker });
      }
    }
  };

  const token = `stand-in-${Math.random().toString(36).slice(2)}`;
  const server = await serveHttp({
    token,
    openSession: (id) => {
      sessions.set(id, { opened: Date.now() });
      window.opened.push(id);
      const mcp = createToolServer({
        call: async (name, input, signal) => {
          forgetAsked();
          window.calls.push({ session: id, tool: name, input });
          const policy = clientPolicy(sessions.get(id)?.name); // the client's budget and placeholder rule, as the extension's
          const session = guard.session(id, { dedup: policy.placeholders, resultBudget: policy.budget });
          const call = parseToolCall(name, input);
          return call.ok ? call.run(session, signal) : call;
        },
        onClient: (client) => {
          sessions.set(id, { name: client.name, opened: sessions.get(id)?.opened ?? Date.now() });
          window.clients.push(client.name);
        },
      });
      return { server: mcp, close: () => { window.closed.push({ session: id, at: Date.now() }); guard.dropSession(id); sessions.delete(id); } };
    },
  });
  const published = publishWindow({ version: 1, pid: process.pid, url: server.url, token, folders: [root], name: 'stand-in window', started: Date.now() }, `stand-in-${server.port}`, discovery);
  window.close = async () => {
    published.remove();
    await server.close();
    await guard.dispose();
  };
  return window;
}
