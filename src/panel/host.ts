// Panel and devtools page: the little of the extension API they need, typed narrowly. src/platform had not
// landed when the panel was written; this is the only panel file that looks at chrome/browser globals.
import type { PortLike } from './transport';

export interface DevtoolsApi {
  inspectedWindow: { tabId: number };
  panels: {
    /** Chrome: "default" | "dark"; Firefox: "light" | "dark". */
    themeName?: string;
    onThemeChanged?: { addListener(callback: (themeName: string) => void): void };
    create(title: string, iconPath: string, pagePath: string, callback?: (panel: unknown) => void): unknown;
  };
}

export interface ExtensionApi {
  runtime?: {
    id?: string;
    connect(info: { name: string }): PortLike;
    getManifest?(): { version: string };
    getURL?(path: string): string;
  };
  devtools?: DevtoolsApi;
}

/** Firefox's `browser` first (promise-based, but the calls used here take no callbacks), else Chrome's `chrome`. */
export function extensionApi(): ExtensionApi | undefined {
  const g = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = g.browser ?? g.chrome;
  // A normal web page in Chrome has a `chrome` object without a runtime id: that is not an extension context.
  return api?.runtime?.id ? api : undefined;
}
