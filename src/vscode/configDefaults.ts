/**
 * The adapter's own setting defaults and value types (the core's are `DEFAULTS`), for `config.ts` to read the
 * settings with and for the features that use them: the approval policy and `@readgate`. Below both, so the
 * settings reader depends on no feature. No `vscode` import: the manifest test compares them with package.json.
 */

/** `readgate.approval.mode`: which changes the user reviews (see `approval/approvalPolicy.ts`). */
export type ApprovalMode = 'always' | 'sensitive' | 'never';

/** `readgate.approval.protected`: files every change to which is reviewed, whatever the mode. */
export const DEFAULT_PROTECTED_GLOBS = [
  '**/.vscode/**',
  '**/.git/**',
  '**/.git',
  '**/.env*',
  '**/*.code-workspace',
  '**/package-lock.json',
  '**/npm-shrinkwrap.json',
  '**/yarn.lock',
  '**/pnpm-lock.yaml',
  '**/bun.lock',
  '**/bun.lockb',
  '**/Cargo.lock',
  '**/poetry.lock',
  '**/Pipfile.lock',
  '**/uv.lock',
  '**/Gemfile.lock',
  '**/composer.lock',
  '**/go.sum',
  '**/flake.lock',
];

/**
 * `readgate.chat.additionalTools`: read-only tools of other extensions (Copilot's search and listing tools) that
 * `@readgate` offers its model when some extension provides them. Never a tool that changes files: its changes
 * would bypass the guard and the review.
 */
export const DEFAULT_CHAT_TOOLS: readonly string[] = [
  'copilot_findFiles',
  'copilot_findTextInFiles',
  'copilot_listDirectory',
  'copilot_searchCodebase',
  'copilot_searchWorkspaceSymbols',
  'copilot_listCodeUsages',
  'copilot_getErrors',
  'copilot_getChangedFiles',
];
