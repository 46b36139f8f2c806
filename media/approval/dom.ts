/**
 * DOM helpers of the approval page: an element builder, an attribute flag, a text-field test (for shortcuts).
 * Text always goes in through `textContent`, never through HTML
 * parsing: file contents, paths and the agent's explanation are untrusted text. Attributes are set one by one;
 * no `style` attribute is ever written, because the panel's CSP (no 'unsafe-inline') would block it. Styles come
 * from classes in approval.css, and the few computed values (gutter width, chunk heights) are set through
 * `element.style.setProperty`, which CSP allows.
 */

export type Child = Node | string | false | null | undefined;

export interface Props {
  class?: string;
  text?: string;
  /** Attributes, e.g. `aria-label`, `role`, `data-focus`. `false`/`undefined` values are skipped. */
  attrs?: Record<string, string | number | boolean | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.attrs) {
    for (const [name, value] of Object.entries(props.attrs)) {
      if (value === undefined || value === false) continue;
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  if (props.text !== undefined) element.textContent = props.text;
  for (const child of children) {
    if (child === false || child === null || child === undefined) continue;
    element.append(child);
  }
  return element;
}

/** Sets or removes a boolean-ish ARIA/state attribute. */
export function setFlag(element: Element, name: string, on: boolean, value = 'true'): void {
  if (on) element.setAttribute(name, value);
  else element.removeAttribute(name);
}

export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== 'button' && target.type !== 'checkbox') || target.isContentEditable;
}
