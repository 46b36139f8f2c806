/**
 * The list of pending approval requests: one button per request (whose change, what it does to how many files), the
 * active one marked `aria-current`. Selecting one is handled by the page through `data-action="select-request"`.
 * The names come from requestWording.ts, shared with the request header.
 */
import type { RequestView } from '../../src/vscode/approval/protocol';
import { h } from './dom';
import { authorLabel, operationLabel } from './requestWording';

export function renderQueue(requests: readonly RequestView[], activeId: string | undefined): HTMLElement {
  const list = h('ol', { class: 'queue-list', attrs: { 'aria-labelledby': 'queue-title' } });
  for (const request of requests) {
    const active = request.id === activeId;
    list.append(
      h(
        'li',
        {},
        h(
          'button',
          {
            class: active ? 'queue-item active' : 'queue-item',
            attrs: {
              type: 'button',
              'data-action': 'select-request',
              'data-request': request.id,
              'data-focus': `queue:${request.id}`,
              'aria-current': active ? 'true' : undefined,
              'aria-label': `${authorLabel(request)}: ${operationLabel(request)}`,
            },
          },
          h('span', { class: 'queue-session', text: authorLabel(request) }),
          h('span', { class: 'queue-operation', text: operationLabel(request) }),
        ),
      ),
    );
  }
  return h(
    'nav',
    { class: 'queue', attrs: { 'aria-labelledby': 'queue-title' } },
    h('h2', { class: 'queue-title', attrs: { id: 'queue-title' } }, 'Pending approvals ', h('span', { class: 'badge count', text: String(requests.length) })),
    list,
  );
}
