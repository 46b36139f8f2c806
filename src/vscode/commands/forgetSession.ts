/**
 * `ReadGate: Forget Session` / `Forget All Sessions`: drop what sessions have seen, e.g. after a
 * conversation was summarized. Files are not touched; the agent simply has to read again. `Clear Ended
 * Sessions` drops the ended ones the Sessions view still lists.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { EndedSessions } from '../sessions/endedSessions';
import type { SessionsNode } from '../views/sessionsView';
import type { Command } from './commandManager';
import { pickSession } from './pickSession';

export class ForgetSessionCommand implements Command {
  static readonly id = COMMAND_IDS.forgetSession;
  readonly id = ForgetSessionCommand.id;

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
    private readonly ended: EndedSessions,
  ) {}

  async execute(node?: SessionsNode): Promise<void> {
    const id = await pickSession(this.guard, this.labels, node, 'Which session should forget what it has seen?');
    if (!id) return;
    const label = this.labels.labelOf(id);
    this.guard.dropSession(id, 'forgotten');
    // Also an ended session: the user asked to forget it.
    this.ended.remove(id);
    void vscode.window.showInformationMessage(`ReadGate forgot what "${label}" had seen; it must read files again before changing them.`);
  }
}

export class ForgetAllSessionsCommand implements Command {
  static readonly id = COMMAND_IDS.forgetAllSessions;
  readonly id = ForgetAllSessionsCommand.id;

  constructor(
    private readonly guard: Guard,
    private readonly ended: EndedSessions,
  ) {}

  execute(): void {
    // One-call sessions of tool calls without a chat session end with their call; they hold nothing to forget.
    const ids = this.guard.sessionIds().filter((id) => !isStandaloneSession(id));
    for (const id of ids) this.guard.dropSession(id, 'forgotten');
    this.ended.clear();
    void vscode.window.showInformationMessage(
      ids.length ? `ReadGate forgot ${ids.length} session${ids.length === 1 ? '' : 's'}.` : 'There were no sessions to forget.',
    );
  }
}

export class ClearEndedSessionsCommand implements Command {
  static readonly id = COMMAND_IDS.clearEndedSessions;
  readonly id = ClearEndedSessionsCommand.id;

  constructor(private readonly ended: EndedSessions) {}

  execute(): void {
    this.ended.clear();
  }
}
