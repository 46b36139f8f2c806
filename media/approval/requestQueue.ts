/**
 * The list of pending approval requests: one button per request (session label, operation, file count), the
 * active one marked `aria-current`. Selecting one is handled by the page through `data-action="select-request"`.
 * Also owns the short human names of operations, shared with the request header.
 */
import type { RequestView } from '../../src/vscode/approval/protocol';
import { h } from './dom';

export function operationLabel(request: RequestView): string {
  if (request.operation === 'multiEdit') return 'Edit files';
  if (request.operation === 'write') return request.files.every((file) => file.created) ? 'Create file' : 'Write file';
  return request.files.every((file) => file.created) ? 'Create file' : 'Edit file';
}

export function fileCountLabel(request: RequestView): string {
  return `${request.files.length} ${request.files.length === 1 ? 'file' : 'files'}`;
}

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
              'aria-label': `${request.sessionLabel}: ${operationLabel(request)}, ${fileCountLabel(request)}`,
            },
          },
          h('span', { class: 'queue-session', text: request.sessionLabel }),
          h('span', { class: 'queue-operation', text: operationLabel(request) }),
          h('span', { class: 'queue-files', text: fileCountLabel(request) }),
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
