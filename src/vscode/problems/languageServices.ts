/**
 * Which language service reports problems on a document, its name for people, and how to learn its problems.
 *
 * TypeScript (and JavaScript) is asked directly: its `typescript.tsserverRequest` command answers
 * `syntacticDiagnosticsSync` and `semanticDiagnosticsSync` for any open document, synchronously and for the
 * content the editor holds, so no waiting is needed. That matters: VS Code 1.139's TypeScript publishes
 * problems only for files open in a tab, and a check that finds none publishes nothing (an empty list replacing
 * an empty list is no event), so waiting for its reports could never tell "checked, clean" from "still busy".
 * Other services (JSON, CSS, and any this window has seen report on a language) are heard through
 * `onDidChangeDiagnostics`. A document no service reports on is never waited for.
 */
import * as vscode from 'vscode';
import type { Problem, ProblemSeverity } from '../../core/index';
import { Disposable } from '../util/dispose';

export interface ProblemService {
  /** Its name for people ("TypeScript"). */
  name: string;
  /**
   * Asks the service for the document's problems as of its current content; undefined when it cannot be asked
   * (then its reports are waited for).
   */
  ask?(document: vscode.TextDocument): Promise<Problem[] | undefined>;
}

const TYPESCRIPT_LANGUAGES = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

const REPORTING: readonly { service: string; extension: string; languages: readonly string[] }[] = [
  { service: 'JSON', extension: 'vscode.json-language-features', languages: ['json', 'jsonc'] },
  { service: 'CSS', extension: 'vscode.css-language-features', languages: ['css', 'scss', 'less'] },
];

/** A diagnostic's `source` as people name the service. */
const SOURCE_NAMES: Readonly<Record<string, string>> = { ts: 'TypeScript', json: 'JSON', css: 'CSS', scss: 'SCSS', less: 'Less' };

/** tsserver's diagnostic as the sync requests answer it (`start`/`end` 1-based). */
interface TsDiagnostic {
  start?: { line: number; offset: number };
  text?: string;
  code?: number;
  category?: string;
}

const TS_SEVERITY: Readonly<Record<string, ProblemSeverity>> = { error: 'error', warning: 'warning', suggestion: 'hint', message: 'information' };

function tsProblem(diagnostic: TsDiagnostic): Problem | undefined {
  if (!diagnostic.start || typeof diagnostic.text !== 'string') return undefined;
  return {
    line: diagnostic.start.line,
    column: diagnostic.start.offset,
    severity: TS_SEVERITY[diagnostic.category ?? ''] ?? 'error',
    source: 'ts',
    ...(diagnostic.code !== undefined ? { code: String(diagnostic.code) } : {}),
    message: diagnostic.text,
  };
}

/** TypeScript's syntactic and semantic problems of an open document, or undefined when it does not answer. */
async function askTypeScript(document: vscode.TextDocument): Promise<Problem[] | undefined> {
  const request = (command: string) =>
    Promise.resolve(
      vscode.commands.executeCommand<{ success?: boolean; body?: TsDiagnostic[] }>('typescript.tsserverRequest', command, { file: document.uri }),
    ).then(undefined, () => undefined);
  const answers = await Promise.all([request('syntacticDiagnosticsSync'), request('semanticDiagnosticsSync')]);
  if (answers.some((answer) => !answer || answer.success !== true || !Array.isArray(answer.body))) return undefined;
  return answers.flatMap((answer) => answer!.body!.map(tsProblem).filter((problem): problem is Problem => problem !== undefined));
}

export class LanguageServices extends Disposable {
  /** languageId → the service seen reporting on it. */
  private readonly learned = new Map<string, string>();

  constructor() {
    super();
    this._register(vscode.languages.onDidChangeDiagnostics((event) => this.learn(event.uris)));
  }

  /** The service that reports on `document`, or undefined when none does here. */
  serviceFor(document: vscode.TextDocument): ProblemService | undefined {
    if (TYPESCRIPT_LANGUAGES.includes(document.languageId) && vscode.extensions.getExtension('vscode.typescript-language-features')) {
      return { name: 'TypeScript', ask: askTypeScript };
    }
    const reporting = REPORTING.find((entry) => entry.languages.includes(document.languageId));
    if (reporting && vscode.extensions.getExtension(reporting.extension)) return { name: reporting.service };
    const learned = this.learned.get(document.languageId);
    return learned ? { name: learned } : undefined;
  }

  private learn(uris: readonly vscode.Uri[]): void {
    for (const uri of uris) {
      const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
      if (!document || this.learned.has(document.languageId)) continue;
      const source = vscode.languages.getDiagnostics(uri).find((diagnostic) => diagnostic.source)?.source;
      if (source) this.learned.set(document.languageId, SOURCE_NAMES[source] ?? source);
    }
  }
}
