/**
 * What ReadGate tells an agent about its tools, written once for every surface that tells it: the `@readgate`
 * participant's prompt, the MCP servers' `initialize` instructions (the extension's and the headless one) and
 * the guarded agent file for Copilot's agent mode. Each surface adds only what is its own (who the agent is,
 * the workspace folders); the rules are these sentences, with the tool names of `toolNames.ts`.
 *
 * The tools' own descriptions (package.json `modelDescription`, which the MCP servers serve as they are) are
 * static JSON, so they cannot import this: each ends with `REFUSAL_GUIDE`, and a unit test holds package.json
 * to it, to `TOOL_NAMES` and to `TOOL_REFERENCE_NAMES`.
 *
 * Not here: the wording of each refusal (`refusals/`), which the agent reads when it happens.
 */
import { TOOL_NAMES } from './toolNames';

const { read, edit, multiEdit, write, applyPatch } = TOOL_NAMES;

/** The one rule every surface states, and every tool description states early (Claude Code cuts them). */
export const NEVER_RETRY = 'Never retry a refused call with identical arguments.';

/** The sentences of the rules, one concern each, in the order an agent needs them. */
export const AGENT_RULES = {
  readFirst: `Read a file with ${read} before you change it (offset and limit read part of a big file), and change only lines you have read in its current version; replacing a whole existing file needs all of it read.`,
  changeTools: `Change files only with ${edit}, ${multiEdit}, ${write} and ${applyPatch} (a unified diff, search/replace blocks or an apply_patch patch; it also creates, deletes and moves files).`,
  /** Only where a read may answer with the placeholder or a delta (the `@readgate` participant keeps them). */
  placeholder:
    'A read that answers "unchanged since your read" means the content is exactly what an earlier result in this conversation showed; one that answers "only what changed since your read" shows the changed lines, and the lines it names as unchanged are exactly as that result showed them. Use that, or pass force: true if you truly need it all again.',
  refusals: `A refusal starts with a code and says the next step: follow it. FILE_CHANGED_SINCE_READ shows what changed, so you can re-issue a corrected change at once. ${NEVER_RETRY}`,
  review: "Each change waits for the user's review. When a change is rejected, the file was not modified: follow the user's reason.",
  /** Only where long results are saved to a file (the `@readgate` participant's tool result store). */
  persistedOutput: `A result that starts with <persisted-output names a file holding the full output; read it with ${read} if the preview is not enough.`,
} as const;

export interface AgentRuleOptions {
  /** The agent may get the *unchanged* placeholder. */
  placeholders?: boolean;
  /** Long results may come back saved to a file. */
  persistedOutputs?: boolean;
}

/** The rules for one surface, in order. */
export function agentRules(options: AgentRuleOptions = {}): string[] {
  return [
    AGENT_RULES.readFirst,
    AGENT_RULES.changeTools,
    ...(options.placeholders ? [AGENT_RULES.placeholder] : []),
    AGENT_RULES.refusals,
    AGENT_RULES.review,
    ...(options.persistedOutputs ? [AGENT_RULES.persistedOutput] : []),
  ];
}

/** The rules as a Markdown list, one line each. */
export function agentRulesList(options: AgentRuleOptions = {}): string {
  return agentRules(options)
    .map((rule) => `- ${rule}`)
    .join('\n');
}

/**
 * Said to every MCP client in `initialize` (one paragraph: clients put it into their system prompt). Without the
 * review rule: the headless server (`dist/mcp.js`) approves every change, as the client's own prompt is the review.
 */
export const MCP_INSTRUCTIONS = [
  'ReadGate guards every file change.',
  AGENT_RULES.readFirst,
  AGENT_RULES.changeTools,
  'Use these tools instead of any other file-editing tool.',
  AGENT_RULES.refusals,
].join(' ');

/** The body of the guarded agent file (Create a Guarded Agent), after its frontmatter. */
export const GUARDED_AGENT_INSTRUCTIONS = `You work on this workspace through ReadGate, which guards every file change.\n\n${agentRulesList()}\n`;

/**
 * The end of every tool's `modelDescription`: the rule against retrying, then every refusal code with the next
 * step it asks for.
 */
export const REFUSAL_GUIDE = `${NEVER_RETRY} A refusal is an error whose message starts with a code and says the next step: EDIT_REQUIRES_PRIOR_READ (read the file first; if your calls have no chat session, pass the version from the read's header as expectedVersion), EDIT_OUTSIDE_SEEN_RANGE (read the named lines, then retry), FILE_CHANGED_SINCE_READ (the message shows what changed; those lines now count as seen: re-issue a corrected change at once), NO_OCCURRENCE_FOUND (copy the text exactly from a read), AMBIGUOUS_MATCH (add surrounding lines or set replaceAll), EDIT_NO_CHANGE (nothing to do), FILE_EXISTS (read the file and edit it instead), FILE_NOT_FOUND (check the path), TARGET_IS_DIRECTORY (name a file), FILE_TOO_LARGE (the file or the new content is too big; ranges can still be read; tell the user), REJECTED_BY_USER (NOT modified; follow the user's reason), CANCELLED (nothing was written), WRITE_FAILED and PRIOR_READ_VERIFICATION_FAILED (the file is unchanged; tell the user), PATH_DENIED, PATH_INVALID, BINARY_FILE and SPECIAL_FILE (not for this tool: do not retry this path), INVALID_INPUT (fix the arguments).`;
