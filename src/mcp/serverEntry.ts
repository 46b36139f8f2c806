/**
 * `dist/mcp.js`: a launcher. A client's hook (`hook`) runs before every tool call, so it loads only the hook's
 * small bundle (`dist/mcp-hook.js`), not the server's (`dist/mcp-server.js`): Node parses a bundle whole even
 * where its modules are loaded lazily, and the server's costs tens of milliseconds a call (bench/hookCost.mjs).
 */
// The bundles beside this file, chosen at run time. An agent's own tools' hook (`hook --own-tools`) runs the agent
// hook, the smallest of them: it runs before every tool call of the agent.
if (process.argv[2] === 'hook') require(process.argv.includes('--own-tools') ? './agent-hook.js' : './mcp-hook.js');
else require('./mcp-server.js');
