// Panel: light or dark, following DevTools when inside it, else the OS preference; `?theme=` overrides (dev, tests).

export type Theme = 'light' | 'dark';

/** The part of devtools.panels that tells the theme. */
export interface ThemeSource {
  /** Chrome: "default" | "dark"; Firefox: "light" | "dark". */
  themeName?: string;
  onThemeChanged?: { addListener(callback: (themeName: string) => void): void };
}

export function themeFromDevtools(themeName: string | undefined): Theme | undefined {
  if (themeName === 'dark') return 'dark';
  if (themeName === 'default' || themeName === 'light') return 'light';
  return undefined;
}

/** Applies the theme to <html data-theme> now and whenever DevTools or the OS switches. */
export function followTheme(root: HTMLElement, panels: ThemeSource | undefined, override: string | null): void {
  const apply = (theme: Theme) => {
    root.dataset.theme = theme;
  };
  if (override === 'light' || override === 'dark') return apply(override);
  const fromDevtools = themeFromDevtools(panels?.themeName);
  if (fromDevtools) {
    apply(fromDevtools);
    panels?.onThemeChanged?.addListener((name) => apply(themeFromDevtools(name) ?? 'light'));
    return;
  }
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  apply(query.matches ? 'dark' : 'light');
  query.addEventListener('change', (e) => apply(e.matches ? 'dark' : 'light'));
}
