// Runs anywhere (pure core): the 2024-11-05 HTTP+SSE transport, for the fault planner. There a POST is answered
// `202 Accepted` and its answer rides the session's one long-lived `GET` event stream, which names the POST
// endpoint in its first `endpoint` event. So a cut meant for a request's response stream strikes that GET stream,
// counting from the moment the request was POSTed.
import type { CutInfo, TapPolicy } from './sse-tap';

/** A cut waiting on a legacy stream: the policy a response stream of its own would get, and the cut's hooks. */
export interface LegacyCut {
  policy: TapPolicy;
  struck(info: CutInfo): void;
  /** The stream ended before the cut point. */
  missed(): void;
}

/** One `GET` event stream that may be a 2024-11-05 session's answer stream. */
export class LegacyStream {
  /** The path and query its `endpoint` event names, once that event has passed. */
  endpoint: string | undefined;
  cut: LegacyCut | undefined;

  constructor(private readonly url: string) {}

  readonly policy: TapPolicy = {
    atFrameStart: (index) => this.cut?.policy.atFrameStart(index) ?? { kind: 'pass' },
    onFrameEnd: (frame, delivered) => {
      if (this.endpoint === undefined && frame.event === 'endpoint' && !frame.dataTruncated)
        this.endpoint = pathAndQuery(frame.dataHead, this.url);
      return this.cut?.policy.onFrameEnd(frame, delivered) ?? 'continue';
    },
  };

  /** The stream was cut: by the cut waiting on it, the only one that can strike it. */
  struck(info: CutInfo): void {
    const cut = this.cut;
    this.cut = undefined;
    cut?.struck(info);
  }

  /** The stream ended: a cut still waiting on it missed, and stays armed for the next request. */
  ended(): void {
    const cut = this.cut;
    this.cut = undefined;
    cut?.missed();
  }
}

/** The open `GET` streams that carry no session header: where a legacy session's answers arrive. */
export class LegacyStreams {
  private readonly open = new Set<LegacyStream>();

  /** A new `GET` stream at `url` (its path and query), watched until {@link release}. */
  watch(url: string): LegacyStream {
    const stream = new LegacyStream(url);
    this.open.add(stream);
    return stream;
  }

  release(stream: LegacyStream): void {
    this.open.delete(stream);
    stream.ended();
  }

  /** The open stream whose `endpoint` event named the path a POST went to, that no cut waits on yet. */
  carrierOf(postUrl: string): LegacyStream | undefined {
    const target = pathAndQuery(postUrl, '/');
    for (const stream of this.open) if (stream.endpoint === target && !stream.cut) return stream;
    return undefined;
  }
}

/**
 * The path and query of `url` as seen from the page at `base` (a path): an absolute URL loses its origin (a server
 * may name itself, and the client then still posts to that path), a relative one is resolved against `base`'s
 * folder. Plain string work, not `URL`: the core runs in pages too (the tap runs the planner, though it passes no
 * `url`, so never reaches this), where a page may have patched `URL`.
 */
export function pathAndQuery(url: string, base: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = (scheme ? url.slice(scheme[0].length) : url).split('#')[0] ?? '';
  if (scheme) return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
  if (rest.startsWith('/')) return rest;
  const folder = (base.split('?')[0] ?? '').replace(/[^/]*$/, '');
  return `${folder === '' ? '/' : folder}${rest}`;
}
