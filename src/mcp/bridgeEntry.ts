/** `dist/mcp-bridge.js`: the hook without the bridge's modules (`hookEntry.ts`), else the bridge (`bridge.ts`). */
import { ranHook } from './hookEntry';

// Loaded only when needed: a hook's start-up counts.
if (!ranHook('readgate-mcp-bridge')) require('./bridge');
