// What VS Code's webview host provides to the page, faked for the browser tests. `installFakeVsCodeHost` is not
// called in Node: the harness serves its source as a script (with the page's nonce) that runs before the
// approval bundle, so it must stay self-contained.
//   - `acquireVsCodeApi()`, once per load, like VS Code: `postMessage` records messages in
//     `window.__harness.posted`; `getState`/`setState` keep JSON in sessionStorage, so state survives a reload of
//     the same tab as it survives a hidden panel in VS Code.
//   - theme colours as `--vscode-*` properties on <html> and a `vscode-light|dark|high-contrast` body class,
//     set through the CSSOM as VS Code does (the CSP forbids inline styles); `__harness.setTheme(name)` switches.
//   - every `securitypolicyviolation` is recorded in `__harness.violations`.

export function installFakeVsCodeHost(themes) {
  const STATE_KEY = 'readgate-test:webview-state';
  const THEME_KEY = 'readgate-test:theme';
  const harness = { posted: [], violations: [], stateWrites: 0 };
  window.__harness = harness;
  // A webview that is shown again is a new document: the browser restores no scroll position, only setState can.
  history.scrollRestoration = 'manual';

  document.addEventListener('securitypolicyviolation', (event) => {
    harness.violations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample, source: event.sourceFile, line: event.lineNumber });
  });

  let acquired = false;
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
    acquired = true;
    return Object.freeze({
      postMessage: (message) => {
        harness.posted.push(JSON.parse(JSON.stringify(message)));
      },
      getState: () => {
        const raw = sessionStorage.getItem(STATE_KEY);
        return raw === null ? undefined : JSON.parse(raw);
      },
      setState: (state) => {
        harness.stateWrites++;
        sessionStorage.setItem(STATE_KEY, JSON.stringify(state));
        return state;
      },
    });
  };
  harness.storedState = () => {
    const raw = sessionStorage.getItem(STATE_KEY);
    return raw === null ? undefined : JSON.parse(raw);
  };

  harness.setTheme = (name) => {
    const theme = themes[name];
    if (!theme) throw new Error(`unknown theme ${name}`);
    sessionStorage.setItem(THEME_KEY, name);
    const root = document.documentElement;
    for (const property of [...root.style]) if (property.startsWith('--vscode-')) root.style.removeProperty(property);
    for (const [property, value] of Object.entries(theme.variables)) root.style.setProperty(property, value);
    const applyBodyClass = () => {
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
      document.body.classList.add(theme.bodyClass);
      document.body.dataset.vscodeThemeKind = theme.bodyClass;
    };
    if (document.body) applyBodyClass();
    else document.addEventListener('DOMContentLoaded', applyBodyClass, { once: true });
  };
  harness.setTheme(new URLSearchParams(location.search).get('theme') ?? sessionStorage.getItem(THEME_KEY) ?? 'dark');
}
