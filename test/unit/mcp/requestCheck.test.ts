import * as assert from 'assert';
import { checkRequest, type RequestFacts } from '../../../src/mcp/index';

const PORT = 4567;
const TOKEN = 'right-token-0123456789';
const ok: RequestFacts = { host: `127.0.0.1:${PORT}`, origin: undefined, authorization: `Bearer ${TOKEN}`, path: '/mcp' };
const status = (facts: Partial<RequestFacts>) => {
  const verdict = checkRequest({ ...ok, ...facts }, PORT, TOKEN);
  return verdict.ok ? 200 : verdict.status;
};

suite('MCP over HTTP: which requests are served (Host, Origin, token, path)', () => {
  test('the loopback names with this port are served; other hosts (DNS rebinding) and ports are 403', () => {
    const table: [string | undefined, number][] = [
      [`127.0.0.1:${PORT}`, 200],
      [`localhost:${PORT}`, 200],
      [`LOCALHOST:${PORT}`, 200],
      [`[::1]:${PORT}`, 200],
      [`127.0.0.1:${PORT + 1}`, 403],
      [`evil.example:${PORT}`, 403],
      ['127.0.0.1', 403],
      [undefined, 403],
    ];
    for (const [host, expected] of table) assert.strictEqual(status({ host }), expected, String(host));
  });

  test('no Origin (agents) or this server\'s own is served; a web page\'s Origin is 403', () => {
    const table: [string | undefined, number][] = [
      [undefined, 200],
      [`http://127.0.0.1:${PORT}`, 200],
      [`http://localhost:${PORT}`, 200],
      ['https://evil.example', 403],
      [`http://localhost:${PORT + 1}`, 403],
      [`https://127.0.0.1:${PORT}`, 403],
      ['null', 403],
    ];
    for (const [origin, expected] of table) assert.strictEqual(status({ origin }), expected, String(origin));
  });

  test('only the exact token as a Bearer credential is served; anything else is 401', () => {
    const table: [string | undefined, number][] = [
      [`Bearer ${TOKEN}`, 200],
      [`bearer ${TOKEN}`, 200],
      [undefined, 401],
      ['', 401],
      [`Basic ${TOKEN}`, 401],
      [`Bearer ${TOKEN}x`, 401],
      [`Bearer ${TOKEN.slice(0, -1)}`, 401],
      ['Bearer ', 401],
      [`Bearer ${TOKEN} extra`, 401],
    ];
    for (const [authorization, expected] of table) assert.strictEqual(status({ authorization }), expected, String(authorization));
  });

  test('only the MCP path is served (a query string is fine); the checks run Host, Origin, token, path in that order', () => {
    assert.strictEqual(status({ path: '/mcp?x=1' }), 200);
    assert.strictEqual(status({ path: '/' }), 404);
    assert.strictEqual(status({ path: '/mcp/extra' }), 404);
    assert.strictEqual(status({ host: 'evil.example', authorization: undefined }), 403, 'a rebinding page learns nothing about the token');
    assert.strictEqual(status({ authorization: undefined, path: '/other' }), 401, 'the path is not probed without the token');
    const refused = checkRequest({ ...ok, authorization: undefined }, PORT, TOKEN);
    assert.ok(!refused.ok && /Connect an External Agent/.test(refused.message));
  });

  // RFC 6750 section 3.1: no error code when no credentials came; nothing that points at OAuth metadata.
  test('a 401 carries a Bearer challenge: the realm alone without credentials, invalid_token with wrong ones', () => {
    const challenge = (authorization: string | undefined): string | undefined => {
      const verdict = checkRequest({ ...ok, authorization }, PORT, TOKEN);
      return verdict.ok ? undefined : verdict.challenge;
    };
    assert.strictEqual(challenge(undefined), 'Bearer realm="readgate"');
    assert.strictEqual(challenge(''), 'Bearer realm="readgate"');
    for (const wrong of ['Bearer nope', `Basic ${TOKEN}`]) assert.match(challenge(wrong) ?? '', /^Bearer realm="readgate", error="invalid_token", error_description="[^"\\]+"$/);
    const forbidden = checkRequest({ ...ok, host: 'evil.example' }, PORT, TOKEN);
    assert.ok(!forbidden.ok && forbidden.challenge === undefined, 'a 403 has no challenge');
  });
});
