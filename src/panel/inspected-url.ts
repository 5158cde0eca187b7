// Panel (inside DevTools only): the inspected page's URL as DevTools' own navigation event tells it. The transport
// learns a navigation from the new document's bridge; a page on a site the user did not pick has none, so without
// this the panel would go on naming the page before it (and say nothing about the one it does not record).

/** The part of `devtools.network` used here. */
export interface NavigationSource {
  onNavigated: { addListener(listener: (url: string) => void): void };
}

export interface InspectedUrlFeed {
  /** Calls `listener` with the URL now (if DevTools has told one yet) and after each navigation; returns the unsubscribe. */
  subscribe(listener: (url: string) => void): () => void;
}

export function watchInspectedUrl(source: NavigationSource): InspectedUrlFeed {
  let current: string | undefined;
  const listeners = new Set<(url: string) => void>();
  source.onNavigated.addListener((url) => {
    if (typeof url !== 'string') return;
    current = url;
    for (const listener of listeners) listener(url);
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      if (current !== undefined) listener(current);
      return () => listeners.delete(listener);
    },
  };
}
