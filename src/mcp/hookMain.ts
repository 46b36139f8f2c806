/** `dist/mcp-hook.js`: the hook of `dist/mcp.js` (`serverEntry.ts` loads it for `node dist/mcp.js hook`). */
import { ranHook } from './hookEntry';

ranHook('readgate-mcp');
