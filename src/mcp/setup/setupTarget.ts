/**
 * One agent `setup` knows (`setup claude-code`, `setup codex`): the settings file it merges, in the project or
 * (with `--user`) the user's own, and what the user runs next. The command (setupCommand.ts) does the reading,
 * writing and printing, so a target is pure.
 */
/** A target's merge: the file's new text, one line per change ("allowed mcp__readgate") and notes, or why not. */
export type FileMerge =
  | { ok: true; text: string; changes: string[]; notes: string[] }
  /** `problem` follows the file's name: "is not valid JSON (…)". */
  | { ok: false; problem: string };

/** A JSON target's merge of the parsed settings. */
export type SettingsMerge = { ok: true; settings: Record<string, unknown>; changes: string[]; notes: string[] } | { ok: false; problem: string };

/** How the agent starts ReadGate: `node <script> <args…>` (the bridge, or the headless server with its options). */
export interface Launch {
  /** Absolute path of the script that ran `setup`. */
  script: string;
  args: string[];
}

/** Where `setup` writes: the project's file, or with `--user` the user's. */
export interface SetupPlace {
  project: string;
  /** The file's absolute path. */
  file: string;
  user: boolean;
}

export interface SetupTarget {
  /** Shown beside the name in `setup --help`. */
  summary: string;
  /** Below the usage line of `setup <target> --help`. */
  help: string;
  /** The settings file, relative to the project folder. */
  file: string;
  /** The user's settings file (for `--user`), given the environment and home folder; undefined: the target has none. */
  userFile?(env: NodeJS.ProcessEnv, home: string): string;
  /** The file's text (undefined when there is none) merged with what the agent needs. */
  merge(text: string | undefined, launch: Launch): FileMerge;
  /** What to run and know next; `readJson` gives another file of the project, parsed (undefined if unreadable). */
  nextSteps(launch: Launch, place: SetupPlace, readJson: (file: string) => unknown): string[];
  /** The set-up with `--own-tools`: the agent keeps its own file tools, judged through its hooks. */
  ownTools?: SetupTarget;
  /** Only `--own-tools` is set up here (the client's MCP set-up is in the Connect guide). */
  ownToolsOnly?: boolean;
}
