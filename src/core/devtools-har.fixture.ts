// Test support (Node): the lab's real cut-mid-event recording as DevTools or Playwright write a HAR: no
// `_streamState`, and the cut and aborted streams without their bodies.
import { readFixture } from './fixtures-dir.fixture';

interface Entry {
  _streamState?: string;
  response: { status: number; content: { text?: string; size?: number; mimeType?: string }; _error?: string };
  [key: string]: unknown;
}

/** The recording as DevTools writes it: no `_streamState`, the cut and aborted streams without `text`. */
export function devtoolsStyle(): string {
  const har = JSON.parse(readFixture('cut-mid-event').har) as { log: { entries: Entry[] } };
  for (const entry of har.log.entries) {
    const state = entry._streamState;
    delete entry._streamState;
    delete entry._seq;
    if (state === 'failed' || state === 'aborted') {
      delete entry.response.content.text;
      entry.response.content.size = 0;
      entry.response._error = state === 'failed' ? 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' : 'net::ERR_ABORTED';
    }
  }
  return JSON.stringify(har);
}
