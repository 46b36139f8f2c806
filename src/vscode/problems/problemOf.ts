/** A VS Code diagnostic as the core compares problems: 1-based line and column, its severity's name. */
import * as vscode from 'vscode';
import type { Problem, ProblemSeverity } from '../../core/index';

const SEVERITIES: Readonly<Record<number, ProblemSeverity>> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function codeOf(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

export function problemOf(diagnostic: vscode.Diagnostic): Problem {
  const code = codeOf(diagnostic.code);
  return {
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITIES[diagnostic.severity] ?? 'error',
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
    ...(code ? { code } : {}),
    message: diagnostic.message,
  };
}
