/** The language model tool names (API.md section 2): the core's, shared with the MCP servers. */
export { TOOL_NAMES as ToolNames } from '../../core/index';
