/**
 * One agent `setup` knows (`setup claude-code`; a later `setup codex` is another): the settings file it merges
 * in the project and what the user runs next. The command (setupCommand.ts) does the reading, writing and
 * printing, so a target is pure.
 */
/** A target's merge: the new settings, one line per change ("allowed mcp__readgate") and notes, or why not. */
export type SettingsMerge =
  | { ok: true; settings: Record<string, unknown>; changes: string[]; notes: string[] }
  | { ok: false; problem: string };

/** How the agent starts ReadGate: `node <script> <args…>` (the bridge, or the headless server with its options). */
export interface Launch {
  /** Absolute path of the script that ran `setup`. */
  script: string;
  args: string[];
}

export interface SetupTarget {
  /** Shown beside the name in `setup --help`. */
  summary: string;
  /** Below the usage line of `setup <target> --help`. */
  help: string;
  /** The settings file, relative to the project folder. */
  file: string;
  /** The file's parsed content (undefined when there is none) merged with what the agent needs. */
  merge(existing: unknown, launch: Launch): SettingsMerge;
  /** What to run and know next; `readJson` gives another file of the project, parsed (undefined if unreadable). */
  nextSteps(launch: Launch, project: string, readJson: (file: string) => unknown): string[];
}
