/**
 * What the approval page keeps through `getState`/`setState`, so hiding the panel (which unloads the page
 * unless the owner retains it) or reloading it loses nothing the user did: the layout, the active request, the
 * hunks they rejected, a half-written rejection reason, and where they had scrolled.
 *
 * Deliberately not kept: the requests themselves. After a reload the page posts `ready` and the extension
 * re-sends the queue, which is the truth; a stale copy could show a request that was cancelled meanwhile.
 * Whatever comes back from `getState` is validated here, since an older page version may have written it.
 */
import type { ChoicesData } from './hunkChoices';
import type { Layout } from './diffRows';

export interface ViewState {
  version: 1;
  layout: Layout;
  activeId?: string;
  choices: ChoicesData;
  /** The rejection form of this request is open with this draft. */
  rejectDraft?: { id: string; reason: string };
  /** Scroll position within this request. */
  scroll?: { id: string; y: number };
}

export function defaultViewState(): ViewState {
  return { version: 1, layout: 'inline', choices: {} };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readChoices(value: unknown): ChoicesData {
  const out: ChoicesData = {};
  if (!isRecord(value)) return out;
  for (const [id, files] of Object.entries(value)) {
    if (!isRecord(files)) continue;
    for (const [path, choice] of Object.entries(files)) {
      if (!isRecord(choice) || typeof choice.hunks !== 'string' || !Array.isArray(choice.rejected)) continue;
      const rejected = choice.rejected.filter((n): n is number => Number.isInteger(n));
      if (rejected.length) (out[id] ??= {})[path] = { hunks: choice.hunks, rejected };
    }
  }
  return out;
}

export function readViewState(raw: unknown): ViewState {
  const state = defaultViewState();
  if (!isRecord(raw) || raw.version !== 1) return state;
  if (raw.layout === 'inline' || raw.layout === 'sideBySide') state.layout = raw.layout;
  if (typeof raw.activeId === 'string') state.activeId = raw.activeId;
  state.choices = readChoices(raw.choices);
  const draft = raw.rejectDraft;
  if (isRecord(draft) && typeof draft.id === 'string' && typeof draft.reason === 'string') state.rejectDraft = { id: draft.id, reason: draft.reason };
  const scroll = raw.scroll;
  if (isRecord(scroll) && typeof scroll.id === 'string' && typeof scroll.y === 'number' && Number.isFinite(scroll.y)) state.scroll = { id: scroll.id, y: scroll.y };
  return state;
}
