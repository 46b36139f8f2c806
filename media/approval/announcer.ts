/**
 * A polite live region: what a screen reader should hear when something changes without moving focus
 * (a hunk toggled, a request arrived or left the queue, the diff changed under review). The text is replaced on
 * the next frame so the same sentence twice in a row is still announced. The last message stays readable in
 * the DOM, which the browser tests use.
 */
import { h } from './dom';

export class Announcer {
  readonly element: HTMLElement;
  private pending = 0;

  constructor() {
    this.element = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-testid': 'announcer' } });
  }

  say(message: string): void {
    this.element.textContent = '';
    cancelAnimationFrame(this.pending);
    if (document.hidden) {
      this.element.textContent = message;
      return;
    }
    this.pending = requestAnimationFrame(() => {
      this.element.textContent = message;
    });
  }
}
