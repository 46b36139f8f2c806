/**
 * What ReadGate says where nothing has happened yet (statistics, ledger, Sessions view): what to do next,
 * including what works without a language model. The Sessions view's own text is its `viewsWelcome` in
 * package.json; a unit test keeps the two saying the same things.
 */

export const NO_SESSIONS_YET =
  'No agent has used ReadGate in this window yet. To see the guard work without a language model, run "ReadGate: Apply Patch…" on a change copied from anywhere, or follow "ReadGate: Get Started". ' +
  'Agents use ReadGate through its tools in chat (agent mode, #readgateRead), through MCP ("ReadGate: Connect an External Agent…" for Claude Code, Codex, Cline), or through its extension API. ' +
  'The @readgate chat participant needs a language model: GitHub Copilot Chat, or another extension that provides chat models.';
