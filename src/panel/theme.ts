// Panel: light or dark, following DevTools when inside it, else the OS preference; `?theme=` overrides (dev, tests).
import type { DevtoolsApi } from './host';

export type Theme = 'light' | 'dark';

export function themeFromDevtools(themeName: string | undefined): Theme | undefined {
  if (themeName === 'dark') return 'dark';
  if (themeName === 'default' || themeName === 'light') return 'light';
  return undefined;
}

/** Applies the theme to <html data-theme> now and whenever DevTools or the OS switches. */
export function followTheme(root: HTMLElement, devtools: DevtoolsApi | undefined, override: string | null): void {
  const apply = (theme: Theme) => {
    root.dataset.theme = theme;
  };
  if (override === 'light' || override === 'dark') return apply(override);
  const fromDevtools = themeFromDevtools(devtools?.panels.themeName);
  if (fromDevtools) {
    apply(fromDevtools);
    devtools?.panels.onThemeChanged?.addListener((name) => apply(themeFromDevtools(name) ?? 'light'));
    return;
  }
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  apply(query.matches ? 'dark' : 'light');
  query.addEventListener('change', (e) => apply(e.matches ? 'dark' : 'light'));
}
