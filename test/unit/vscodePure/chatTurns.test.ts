import * as assert from 'assert';
import { decideReplay, hasUnansweredRead, type HistoryTurn, latestTurnMetadata, PARTICIPANT_ID, replayTurns, turnMetadataOf, type TurnMetadata } from '../../../src/vscode/chat/chatTurns';

const ask = (prompt: string, command?: string, participant = PARTICIPANT_ID): HistoryTurn => ({ prompt, participant, ...(command ? { command } : {}) });
const answer = (metadata: unknown, text = '', participant = PARTICIPANT_ID): HistoryTurn => ({ participant, result: { metadata }, response: [{ value: { value: text } }] });
const meta = (session: string, rounds: TurnMetadata['rounds'] = [], extra: Partial<TurnMetadata> = {}): TurnMetadata => ({ readgateSession: `chat-participant:${session}`, rounds, droppedTurns: 0, ...extra });
const read = (callId: string, output: string): TurnMetadata['rounds'][number] => ({ text: '', calls: [{ callId, name: 'readgate_read', input: { filePath: 'a.ts' } }], results: { [callId]: output } });

suite('chat participant turns', () => {
  test('a new or cleared chat (empty history) has no session to recover', () => {
    assert.strictEqual(latestTurnMetadata([]), undefined);
  });

  test('later turns recover the session of the newest turn of ours, ignoring other participants and bad metadata', () => {
    const history = [ask('one'), answer(meta('A')), ask('x', undefined, 'other.agent'), answer(meta('B'), '', 'other.agent'), ask('two'), answer({ readgateSession: 42 })];
    assert.strictEqual(latestTurnMetadata(history)?.readgateSession, 'chat-participant:A');
  });

  test('metadata that names a session id of another kind is not trusted', () => {
    // A session id from elsewhere (an API session, a tool session) must never be adopted from chat history.
    assert.strictEqual(turnMetadataOf({ readgateSession: 'api:1234', rounds: [] }), undefined);
    assert.strictEqual(turnMetadataOf({ readgateSession: 'chat-participant:x', rounds: [{ bogus: true }], droppedTurns: -3 })?.rounds.length, 0);
  });

  test('replays our conversation turns with their tool rounds, skipping slash commands and other participants', () => {
    const history = [
      ask('read a.ts'), answer(meta('A', [read('c1', 'content'), { text: 'It has one line.', calls: [], results: {} }])),
      ask('', 'ledger'), answer(meta('A', [], { command: 'ledger' })),
      ask('hi', undefined, 'other.agent'), answer(undefined, 'hello', 'other.agent'),
      ask('thanks'), answer(undefined, 'You are welcome.'),
    ];
    const turns = replayTurns(history);
    assert.deepStrictEqual(turns.map((turn) => [turn.prompt, turn.rounds.length, turn.fallbackText, turn.toolChars]), [
      ['read a.ts', 2, '', 'content'.length],
      ['thanks', 0, 'You are welcome.', 0],
    ]);
  });

  test('after /forget the earlier tool outputs are no longer replayed, only what was said', () => {
    const history = [
      ask('read a.ts'), answer(meta('A', [{ ...read('c1', 'secret content'), text: 'Reading.' }, { text: ' Done.', calls: [], results: {} }])),
      ask('', 'forget'), answer(meta('A', [], { command: 'forget' })),
      ask('again'), answer(meta('A', [read('c2', 'new content')])),
    ];
    const turns = replayTurns(history);
    assert.deepStrictEqual(turns[0], { prompt: 'read a.ts', rounds: [], fallbackText: 'Reading. Done.', toolChars: 0 });
    assert.strictEqual(turns[1].rounds[0].results.c2, 'new content');
  });

  test('drops tool output of the oldest turns first until the replay fits, and forgets only when more is dropped than before', () => {
    const turns = [{ toolChars: 500 }, { toolChars: 0 }, { toolChars: 300 }, { toolChars: 200 }];
    assert.deepStrictEqual(decideReplay(turns, 100, 10_000, 0), { dropTurns: 0, forget: false });
    assert.deepStrictEqual(decideReplay(turns, 100, 700, 0), { dropTurns: 1, forget: true });
    // Dropping the same turns again is nothing new: what the model still sees is what it saw last turn.
    assert.deepStrictEqual(decideReplay(turns, 100, 700, 1), { dropTurns: 1, forget: false });
    assert.deepStrictEqual(decideReplay(turns, 100, 350, 1), { dropTurns: 3, forget: true });
  });

  test('turns without tool output never count as dropped', () => {
    assert.deepStrictEqual(decideReplay([{ toolChars: 0 }, { toolChars: 0 }], 5_000, 100, 0), { dropTurns: 0, forget: false });
  });

  test('a read the model called but never got the result of (a cancelled turn) is noticed', () => {
    const answered = read('c1', 'content');
    const unanswered = { ...read('c2', ''), results: {} };
    assert.strictEqual(hasUnansweredRead([answered]), false);
    assert.strictEqual(hasUnansweredRead([answered, unanswered]), true);
    assert.strictEqual(hasUnansweredRead([{ text: '', calls: [{ callId: 'x', name: 'readgate_edit', input: {} }], results: {} }]), false, 'an unanswered edit shows no content');
  });
});
