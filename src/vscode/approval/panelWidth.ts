/**
 * The review panel's width when it opens for a change the user started (a revert from Agent Changes, Apply
 * Patch): it opens beside the editor, and VS Code splits the editor's group in half, which at the default window
 * and side bar leaves about 500 px, where every diff line and conflict side wraps. So the new group is widened
 * to a usable width, taken from the groups beside it while each keeps a readable minimum. Only a plain row of
 * groups is resized (a grid of rows and columns is the user's own arrangement), and only when the panel opens:
 * a width the user set afterwards is theirs. An agent's review never resizes the editor the user is typing in.
 *
 * The pure decision, over the layout VS Code's `vscode.getEditorLayout` command gives (sizes in pixels);
 * `widenPanel.ts` reads and sets it. No `vscode` import.
 */
/** Room for a diff line of 80 columns beside two line-number columns, and for a conflict's two sides abreast. */
export const USABLE_PANEL_WIDTH = 800;
/** What every other group keeps: the editor beside the panel stays readable. */
export const MIN_OTHER_WIDTH = 300;

/**
 * The sizes of a row of groups with group `index` widened to `usable` (or as near as the others allow, each
 * keeping `minOther`), the room taken from each in proportion to what it has above that minimum; undefined
 * when the group is wide enough or cannot be widened.
 */
export function widenedRow(sizes: readonly number[], index: number, usable = USABLE_PANEL_WIDTH, minOther = MIN_OTHER_WIDTH): number[] | undefined {
  const own = sizes[index];
  if (own === undefined || sizes.length < 2 || own >= usable) return undefined;
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const target = Math.min(usable, total - (sizes.length - 1) * minOther);
  if (target <= own) return undefined;
  const spare = sizes.map((size, i) => (i === index ? 0 : Math.max(0, size - minOther)));
  const spareTotal = spare.reduce((sum, size) => sum + size, 0);
  return sizes.map((size, i) => (i === index ? target : Math.round(size - ((target - own) * spare[i]) / spareTotal)));
}

/** An editor layout as VS Code's commands give and take it. */
export interface EditorLayout {
  /** 0: the groups side by side; 1: stacked. */
  orientation: number;
  groups: { size?: number; groups?: unknown[] }[];
}

/** The widths of a plain row of groups (side by side, none split again), else undefined. */
export function rowSizes(layout: EditorLayout | undefined): number[] | undefined {
  if (!layout || layout.orientation !== 0 || !Array.isArray(layout.groups)) return undefined;
  if (layout.groups.some((group) => group.groups !== undefined || typeof group.size !== 'number')) return undefined;
  return layout.groups.map((group) => group.size as number);
}
