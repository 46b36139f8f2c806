/**
 * The extension's public API, returned by `activate()` (API.md section 3). Other extensions read it with
 * `vscode.extensions.getExtension('readgate.readgate')?.activate()` and must check `apiVersion` first.
 */
export interface ReadGateApi {
  readonly apiVersion: 1;
}

export function createApi(): ReadGateApi {
  return Object.freeze({ apiVersion: 1 as const });
}
