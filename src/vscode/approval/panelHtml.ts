/**
 * The approval panel's HTML, one builder for the real webview and the browser tests (which serve the same page
 * under the same CSP with a fake host added in `headExtras`). No `vscode` import, so plain Node can use it.
 * Strict CSP: no inline script or style, scripts only with the per-load nonce, styles, fonts and images only
 * from the webview's own resource origin. The page's script builds everything inside `#approval-root`.
 */

export interface PanelHtmlOptions {
  /** The webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  /** A fresh random value per load. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Extra `<head>` markup (tests only: the fake host script, with the nonce). */
  headExtras?: string;
}

export function approvalPanelHtml(options: PanelHtmlOptions): string {
  const { cspSource, nonce } = options;
  const csp = [`default-src 'none'`, `style-src ${cspSource}`, `font-src ${cspSource}`, `img-src ${cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${options.headExtras ?? ''}<link rel="stylesheet" href="${options.styleUri}">
<title>ReadGate: Review</title>
</head>
<body>
<div id="approval-root"></div>
<script nonce="${nonce}" src="${options.scriptUri}"></script>
</body>
</html>`;
}
