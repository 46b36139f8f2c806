/**
 * Which HTTP requests the extension's MCP server serves (a pure decision, so every case is tested). The server
 * listens on 127.0.0.1 only; beyond that, a web page in the user's browser must not reach it (DNS rebinding:
 * the Host header then names the attacker's domain; a cross-site request carries a foreign Origin), and no
 * other local process may use it without the window's secret token. A request without it gets a 401 with a
 * Bearer challenge that names no OAuth metadata.
 */
import { timingSafeEqual } from 'crypto';

export interface RequestFacts {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  path: string;
}

/** `challenge`: the `WWW-Authenticate` header of a 401. */
export type RequestVerdict = { ok: true } | { ok: false; status: 401 | 403 | 404; message: string; challenge?: string };

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function checkRequest(facts: RequestFacts, port: number, token: string, endpoint = '/mcp'): RequestVerdict {
  const allowedHosts = LOCAL_HOSTS.map((host) => `${host}:${port}`);
  if (!facts.host || !allowedHosts.includes(facts.host.toLowerCase())) {
    return { ok: false, status: 403, message: `Forbidden: Host must be one of ${allowedHosts.join(', ')}.` };
  }
  // Agents send no Origin; a browser always does on a cross-origin request, and only a page served by this very
  // server (there is none) could have one of these.
  if (facts.origin !== undefined && !allowedHosts.some((host) => facts.origin?.toLowerCase() === `http://${host}`)) {
    return { ok: false, status: 403, message: 'Forbidden: requests from web pages are not served.' };
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(facts.authorization ?? '');
  if (!match || !sameSecret(match[1], token)) {
    return {
      ok: false,
      status: 401,
      message:
        'Unauthorized: this server takes no OAuth, only the token from the window\'s discovery file, as "Authorization: Bearer <token>" (run "ReadGate: Connect an External Agent…" for the set-up).',
      challenge: bearerChallenge(facts.authorization),
    };
  }
  const pathOnly = facts.path.split('?')[0];
  if (pathOnly !== endpoint) return { ok: false, status: 404, message: `Not found: the MCP endpoint is ${endpoint}.` };
  return { ok: true };
}

/**
 * RFC 6750's challenge: the scheme and a realm; `invalid_token` only when credentials came (a request without
 * any gets no error code, section 3.1). No `resource_metadata` nor `scope`: those point an MCP client at OAuth
 * discovery (MCP's authorization spec, RFC 9728), and this server has no authorization server. The description
 * is plain ASCII without quotes or backslashes, as the RFC requires.
 */
function bearerChallenge(authorization: string | undefined): string {
  const realm = 'Bearer realm="readgate"';
  if (!authorization) return realm;
  return `${realm}, error="invalid_token", error_description="The token is not this window's; send the one from its discovery file. No OAuth."`;
}
