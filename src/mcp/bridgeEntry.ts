/** `dist/mcp-bridge.js`: the hook without the bridge's modules (`hookEntry.ts`), else the bridge (`bridge.ts`). */
import { ranHook } from './hookEntry';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when needed: a hook's start-up counts
if (!ranHook('readgate-mcp-bridge')) require('./bridge');
