/**
 * The MCP tools are the language model tools: the same names, input schemas and descriptions, taken from the
 * one place they are written (the manifest's `contributes.languageModelTools`, bundled at build time), plus
 * MCP's behaviour hints. All five are closed-world: they touch only files under the guard's roots.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAMES, type ToolName } from '../core/index';
import manifest from '../../package.json';

interface ManifestTool {
  name: string;
  displayName: string;
  modelDescription: string;
  inputSchema: Tool['inputSchema'];
}

const HINTS: Record<ToolName, NonNullable<Tool['annotations']>> = {
  // A read changes no file; repeating it changes nothing either (only the reply may become a placeholder).
  [TOOL_NAMES.read]: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  // Replacing text removes what was there; a repeated call can match again (replaceAll), so not idempotent.
  [TOOL_NAMES.edit]: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  [TOOL_NAMES.multiEdit]: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // Writing the same content again is refused as EDIT_NO_CHANGE: no further effect.
  [TOOL_NAMES.write]: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // A patch applied again no longer matches (its old lines are gone) and is refused: no further effect.
  [TOOL_NAMES.applyPatch]: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

export const MCP_TOOLS: Tool[] = (manifest.contributes.languageModelTools as unknown as ManifestTool[]).map((tool) => ({
  name: tool.name,
  title: tool.displayName,
  description: tool.modelDescription,
  inputSchema: tool.inputSchema,
  annotations: { title: tool.displayName, ...HINTS[tool.name as ToolName] },
}));

/** ReadGate's version, for the MCP `initialize` answer. */
export const READGATE_VERSION: string = manifest.version;
