/**
 * Entry point of the approval panel's page (bundled to dist/webview/approval.js). Boots once: connects to the
 * extension, restores the view state, builds the page into `#approval-root` (src/vscode/approval/panelHtml.ts, or the body), routes validated
 * extension messages and keyboard shortcuts to it, then posts `ready` so the extension sends the queue. The
 * panel's HTML needs nothing but the CSP, the stylesheet and this script with its nonce.
 */
import { ApprovalPage } from './approvalPage';
import { isTextField } from './dom';
import { connectToExtension, parseToWebview } from './extensionChannel';
import { commandFor } from './shortcuts';

function boot(): void {
  const channel = connectToExtension();
  const root = document.getElementById('approval-root') ?? document.body;
  const page = new ApprovalPage(root, channel);

  window.addEventListener('message', (event: MessageEvent) => {
    const message = parseToWebview(event.data);
    if (message) page.receive(message);
  });

  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const command = commandFor(event, {
      inTextField: isTextField(target),
      inReasonField: target instanceof HTMLTextAreaElement && target.id === 'reject-reason',
    });
    if (!command) return;
    event.preventDefault();
    page.runCommand(command);
  });

  channel.post({ type: 'ready' });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
else boot();
