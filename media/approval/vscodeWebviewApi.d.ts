/**
 * The API VS Code injects into every webview, declared locally instead of depending on `@types/vscode-webview`
 * (same shape). `acquireVsCodeApi` may be called only once per page load; `getState`/`setState` keep JSON data
 * while the panel is hidden or reloaded, which is how the approval page survives without
 * `retainContextWhenHidden`.
 */
interface WebviewApi<StateType> {
  postMessage(message: unknown): void;
  getState(): StateType | undefined;
  setState<T extends StateType | undefined>(newState: T): T;
}

declare function acquireVsCodeApi<StateType = unknown>(): WebviewApi<StateType>;
