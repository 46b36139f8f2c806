/** What the rest of the extension knows of this window's MCP server (owned by McpHost). */
import type * as vscode from 'vscode';

export interface McpEndpoint {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** The window's secret, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** This window's discovery file (what the bridge reads). */
  discoveryFile: string;
}

/** The server as the commands see it. */
export interface McpServerControl {
  /** The running server, or undefined while `readgate.mcp.enabled` is off (or it has not started yet). */
  readonly endpoint: McpEndpoint | undefined;
  readonly onDidChangeEndpoint: vscode.Event<McpEndpoint | undefined>;
  /** Turns `readgate.mcp.enabled` on in the user settings and resolves once the server runs (undefined if it could not start). */
  enable(): Promise<McpEndpoint | undefined>;
  /** Absolute path of the stdio bridge agents start: a copy outside the extension folder, so it survives updates. */
  readonly bridgePath: string;
  /** The folder the window publishes its discovery file in, and the bridge reads. */
  readonly discoveryDir: string;
  /** Absolute path of the headless server (`dist/mcp.js`) in the extension. */
  readonly headlessPath: string;
}
