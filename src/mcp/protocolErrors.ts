/**
 * The JSON-RPC errors ReadGate's MCP surface answers with: those its transports answer themselves, for messages
 * that never reach the MCP server (a message too large, text that is not JSON, JSON that is not a JSON-RPC
 * message, and the HTTP layer's refusals), and the tool server's unknown tool. Codes are JSON-RPC 2.0's; both
 * transports (stdio and Streamable HTTP) use these, with the same cap on one message.
 */

/** One message at most: tool calls carry whole files (`readgate_write`); the guard caps files far lower. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** JSON-RPC 2.0's codes (the SDK's `ErrorCode` lacks a name for the implementation-defined -32000). */
export const JSONRPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  /** Implementation-defined server errors (-32000 to -32099): refusals by the HTTP layer. */
  serverError: -32000,
  /** What the SDK answers for an unknown MCP session. */
  sessionNotFound: -32001,
} as const;

export interface ProtocolError {
  code: number;
  message: string;
}

const formatBytes = (bytes: number): string => bytes.toLocaleString('en-US');

export const protocolErrors = {
  tooLarge(bytes?: number): ProtocolError {
    const size = bytes === undefined ? 'The message is' : `The message is ${formatBytes(bytes)} bytes,`;
    return {
      code: JSONRPC_CODES.invalidRequest,
      message: `Request too large: ${size} above the ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB (${formatBytes(MAX_MESSAGE_BYTES)} bytes) one message may have. It was not read, and nothing was done. Send less in one call (change a large file with several readgate_edit calls).`,
    };
  },
  /** MCP's tools section: an unknown tool is a protocol error, not a tool result. */
  unknownTool(name: string, tools: readonly string[]): ProtocolError {
    const shown = name.length > 100 ? `${JSON.stringify(name.slice(0, 100))}… (${formatBytes(name.length)} characters)` : JSON.stringify(name);
    return { code: JSONRPC_CODES.invalidParams, message: `Unknown tool: ${shown}; ReadGate's tools are ${tools.join(', ')}.` };
  },
  /** A request without a session id that is no `initialize`. */
  notStarted(): ProtocolError {
    return { code: JSONRPC_CODES.serverError, message: 'Bad request: start with an initialize request (without an mcp-session-id header).' };
  },
  sessionNotFound(): ProtocolError {
    return {
      code: JSONRPC_CODES.sessionNotFound,
      message: 'Session not found: the MCP session ended (the window reloaded or the session was closed). Initialize a new one.',
    };
  },
  /** Host, Origin, token or path refused (requestCheck.ts words why). */
  refused(message: string): ProtocolError {
    return { code: JSONRPC_CODES.serverError, message };
  },
  internal(detail: string): ProtocolError {
    return { code: JSONRPC_CODES.internalError, message: `Internal error: ${detail}` };
  },
  notJson(): ProtocolError {
    return {
      code: JSONRPC_CODES.parseError,
      message: 'Parse error: the message is not JSON. Nothing was done. Send one JSON-RPC message per line (stdio) or per request body (HTTP).',
    };
  },
  notJsonRpc(): ProtocolError {
    return {
      code: JSONRPC_CODES.invalidRequest,
      message: 'Invalid Request: the message is JSON but not a JSON-RPC 2.0 message ({ "jsonrpc": "2.0", "method", "id"?, "params"? }). Nothing was done.',
    };
  },
};

/** An error a request handler throws: the SDK answers it with exactly this code and message. */
export function thrown(error: ProtocolError): Error & ProtocolError {
  return Object.assign(new Error(error.message), { code: error.code });
}
