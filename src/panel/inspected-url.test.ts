import { describe, expect, it } from 'vitest';
import { watchInspectedUrl } from './inspected-url';

describe('watchInspectedUrl', () => {
  it("tells each subscriber DevTools' latest navigation, now and after each one, until it unsubscribes", () => {
    let navigate: (url: string) => void = () => undefined;
    const feed = watchInspectedUrl({ onNavigated: { addListener: (listener) => (navigate = listener) } });
    const early: string[] = [];
    const stop = feed.subscribe((url) => early.push(url));
    expect(early).toEqual([]);
    navigate('http://127.0.0.1:8000/a');
    const late: string[] = [];
    feed.subscribe((url) => late.push(url));
    navigate('http://localhost:8000/b');
    stop();
    navigate('https://example.com/');
    expect(early).toEqual(['http://127.0.0.1:8000/a', 'http://localhost:8000/b']);
    expect(late).toEqual(['http://127.0.0.1:8000/a', 'http://localhost:8000/b', 'https://example.com/']);
  });
});
