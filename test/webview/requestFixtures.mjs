// Approval requests (protocol `RequestView`s) for the browser tests, written as unified-diff lines
// (' ' context, '-' removed, '+' added) so a reader sees the diff the page must show.

/** A hunk starting at the given old/new lines; numbers every line like the extension does. */
export function hunk(index, oldStart, newStart, body) {
  let oldLine = oldStart;
  let newLine = newStart;
  const lines = body.map((raw) => {
    const text = raw.slice(1);
    if (raw[0] === ' ') return { kind: 'context', text, oldLine: oldLine++, newLine: newLine++ };
    if (raw[0] === '-') return { kind: 'removed', text, oldLine: oldLine++ };
    if (raw[0] === '+') return { kind: 'added', text, newLine: newLine++ };
    throw new Error(`bad diff line: ${raw}`);
  });
  return { index, oldStart, oldLines: oldLine - oldStart, newStart, newLines: newLine - newStart, lines };
}

export const SERVER_PATH = '/work/project/src/server.ts';
export const HEALTH_PATH = '/work/project/src/health.ts';

/** The agent's reason contains markup on purpose: it must show as text, never as HTML. */
export const EXPLANATION = 'Read the port and host from the environment and add a health check for the load balancer. <b>Not bold</b> <img src=x onerror="window.__pwned = 1">';

/** A multiEdit over two files: an existing file with two hunks, and a created file. */
export function twoFileRequest(id = 'req-multi') {
  return {
    id,
    revision: 2,
    sessionLabel: 'Chat: server setup',
    operation: 'multiEdit',
    explanation: EXPLANATION,
    files: [
      {
        path: SERVER_PATH,
        displayPath: 'src/server.ts',
        created: false,
        totalOldLines: 120,
        totalNewLines: 121,
        hunks: [
          hunk(0, 8, 8, [
            " import { createServer } from 'node:http';",
            " import { router } from './router';",
            ' ',
            '-const port = 8080;',
            '+const port = Number(process.env.PORT ?? 8080);',
            "+const host = process.env.HOST ?? '127.0.0.1';",
            ' ',
            ' export function start() {',
            '   const server = createServer(router);',
          ]),
          hunk(1, 96, 97, [
            "   server.on('error', (error) => {",
            "     log.error('server failed', error);",
            '   });',
            '-  server.listen(port);',
            '+  server.listen(port, host);',
            '   return server;',
            ' }',
            ' ',
          ]),
        ],
      },
      {
        path: HEALTH_PATH,
        displayPath: 'src/health.ts',
        created: true,
        totalOldLines: 0,
        totalNewLines: 7,
        hunks: [
          hunk(0, 1, 1, [
            "+import type { IncomingMessage, ServerResponse } from 'node:http';",
            '+',
            "+/** Answers the load balancer's health check. */",
            '+export function health(_request: IncomingMessage, response: ServerResponse): void {',
            "+  response.writeHead(200, { 'content-type': 'application/json' });",
            '+  response.end(JSON.stringify({ ok: true }));',
            '+}',
          ]),
        ],
      },
    ],
  };
}

/** A single-file edit from another session. */
export function readmeRequest(id = 'req-readme') {
  return {
    id,
    sessionLabel: 'Chat: docs',
    operation: 'edit',
    explanation: 'Document the PORT and HOST variables.',
    files: [
      {
        path: '/work/project/README.md',
        displayPath: 'README.md',
        created: false,
        totalOldLines: 40,
        totalNewLines: 41,
        hunks: [hunk(0, 20, 20, [' ## Running', ' ', '-Start the server with `npm start`.', '+Start the server with `npm start`; set `PORT` and `HOST`', '+to choose where it listens.', ' '])],
      },
    ],
  };
}

/**
 * A 5,000-line file changed throughout: every line but each third is rewritten, so the one hunk holds
 * about 3,300 removed and 3,300 added lines between 1,700 context lines (about 8,300 rows inline).
 */
export function bigRewriteRequest(lineCount = 5000, id = 'req-big') {
  const body = [];
  let removed = [];
  let added = [];
  const flush = () => {
    body.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (let i = 1; i <= lineCount; i++) {
    if (i % 3 === 1) {
      flush();
      body.push(` // row ${i}: unchanged`);
    } else {
      removed.push(`-export const value${i} = ${i};`);
      added.push(`+export const value${i} = ${i * 2}; // doubled`);
    }
  }
  flush();
  return {
    id,
    sessionLabel: 'Chat: codegen',
    operation: 'write',
    explanation: 'Regenerate the lookup table with doubled values.',
    files: [{ path: '/work/project/src/generated/table.ts', displayPath: 'src/generated/table.ts', created: false, totalOldLines: lineCount, totalNewLines: lineCount, hunks: [hunk(0, 1, 1, body)] }],
  };
}

/** One file with many small hunks, 100 lines apart, for hunk-to-hunk navigation. */
export function manyHunksRequest(hunkCount = 30, id = 'req-many') {
  const hunks = [];
  for (let i = 0; i < hunkCount; i++) {
    const start = 1 + i * 100;
    hunks.push(hunk(i, start, start, [` line ${start}`, ` line ${start + 1}`, ` line ${start + 2}`, `-old ${start + 3}`, `+new ${start + 3}`, ` line ${start + 4}`, ` line ${start + 5}`, ` line ${start + 6}`]));
  }
  return {
    id,
    sessionLabel: 'Chat: refactor',
    operation: 'edit',
    explanation: 'Rename old to new everywhere.',
    files: [{ path: '/work/project/src/names.ts', displayPath: 'src/names.ts', created: false, totalOldLines: hunkCount * 100, totalNewLines: hunkCount * 100, hunks }],
  };
}

export const MAIN_PATH = '/work/project/app/main.py';
export const OLD_MOD_PATH = '/work/project/app/old/mod.py';
export const NEW_MOD_PATH = '/work/project/app/core/mod.py';
export const LEGACY_PATH = '/work/project/app/legacy.py';
export const INIT_PATH = '/work/project/app/core/__init__.py';

/** The lines of a file to delete: a small module that goes on for `count` lines. */
function legacyLines(count) {
  const lines = ['"""Helpers kept for the old importer; nothing calls them any more."""', '', 'import json', ''];
  for (let i = lines.length + 1; lines.length < count; i++) lines.push(i % 5 === 0 ? '' : `def legacy_${i}(value):  # line ${i}`);
  return lines.slice(0, count);
}

/** A deleted file as the extension shows it: its whole old content as one hunk of removed lines. */
export function deletedFile(count = 45) {
  return { path: LEGACY_PATH, displayPath: 'app/legacy.py', created: false, deleted: true, totalOldLines: count, totalNewLines: 0, hunks: [hunk(0, 1, 1, legacyLines(count).map((line) => `-${line}`))] };
}

/** A file moved from app/old/ to app/core/ with one line of it changed. */
export function movedFile({ edited = true } = {}) {
  return {
    path: OLD_MOD_PATH,
    displayPath: 'app/old/mod.py',
    created: false,
    movedTo: NEW_MOD_PATH,
    movedToDisplay: 'app/core/mod.py',
    totalOldLines: 12,
    totalNewLines: 12,
    hunks: edited ? [hunk(0, 2, 2, [' ', ' def answer():', '-    return 41', '+    return 42', ' ', ' '])] : [],
  };
}

/** A session.delete of a 45-line file. */
export function deleteRequest(count = 45, id = 'req-delete') {
  return { id, revision: 0, sessionLabel: 'Chat: cleanup', operation: 'delete', explanation: 'legacy.py is no longer imported anywhere.', files: [deletedFile(count)] };
}

/** A session.rename without edits. */
export function moveRequest(id = 'req-move') {
  return { id, revision: 0, sessionLabel: 'Chat: cleanup', operation: 'rename', explanation: 'Group the module with the core.', files: [movedFile({ edited: false })] };
}

/** One multiEdit that edits a file, moves one with an edit, creates one and deletes one. */
export function mixedRequest(id = 'req-mixed') {
  return {
    id,
    revision: 1,
    sessionLabel: 'Chat: restructure',
    operation: 'multiEdit',
    explanation: 'Move mod.py into the core package, fix its answer, and drop the unused legacy helpers.',
    files: [
      {
        path: MAIN_PATH,
        displayPath: 'app/main.py',
        created: false,
        totalOldLines: 8,
        totalNewLines: 8,
        hunks: [hunk(0, 1, 1, ['-from app.old.mod import answer', '+from app.core.mod import answer', ' ', ' print(answer())'])],
      },
      movedFile(),
      { path: INIT_PATH, displayPath: 'app/core/__init__.py', created: true, totalOldLines: 0, totalNewLines: 1, hunks: [hunk(0, 1, 1, ['+"""The core package."""'])] },
      deletedFile(45),
    ],
  };
}

/** The user's own Apply Patch run, as the extension shows it. */
export function ownPatchRequest(id = 'req-own') {
  return {
    id,
    revision: 0,
    sessionLabel: 'Apply Patch (the clipboard)',
    operation: 'multiEdit',
    own: true,
    explanation: 'Apply the patch from the clipboard (unified diff): README.md',
    files: readmeRequest().files,
  };
}

export const INVENTORY_PATH = '/work/project/src/inventory.ts';

/**
 * A revert from the change history with a conflict, as the extension shows it: the agent changed the restock
 * loop and the threshold; the user has since changed the loop again, so only the threshold goes back (the one
 * hunk shown) and the loop's lines conflict, with what is there now and what the revert wanted.
 */
export function revertConflictRequest(id = 'req-revert') {
  return {
    id,
    revision: 0,
    sessionLabel: 'Revert',
    operation: 'multiEdit',
    own: true,
    revert: true,
    explanation: 'Revert "Fix the off-by-one in the restock loop" by Claude Code 2.0.14 (12:04:31)',
    conflicts: [
      {
        path: INVENTORY_PATH,
        displayPath: 'src/inventory.ts',
        reason: 'lines',
        summary: 'These lines were changed again after the change you revert. Taking the merged parts leaves them as they are now.',
        ranges: [
          {
            start: 14,
            end: 15,
            where: 'Lines 14–15',
            now: ['  for (let i = 0; i < items.length; i++) {', '    if (items[i].stock <= threshold) restock(items[i], batchSize);'],
            wanted: ['  for (let i = 0; i <= items.length; i++) {', '    if (items[i].stock < threshold) restock(items[i]);'],
          },
        ],
      },
    ],
    files: [
      {
        path: INVENTORY_PATH,
        displayPath: 'src/inventory.ts',
        created: false,
        totalOldLines: 40,
        totalNewLines: 40,
        hunks: [hunk(0, 3, 3, [' import { restock } from "./restock";', ' ', '-const threshold = 5;', '+const threshold = 3;', ' const batchSize = 12;', ' '])],
      },
    ],
  };
}

/** The same revert with no conflict left (what a clean revert looks like). */
export function cleanRevertRequest(id = 'req-revert-clean') {
  const request = revertConflictRequest(id);
  delete request.conflicts;
  return request;
}
