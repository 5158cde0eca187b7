// Runs anywhere (pure core): a capture with its secrets hidden, for export. Headers and URLs get `‹redacted:3f2a›`
// tags (the tap did it at the source already, unless the user opted in), Mcp-Session-Id a stable alias, and bodies
// same-length masks (body.ts), so analyzing the result finds what the original had, with the aliases in place of
// the session ids.
import { TextDecoder } from '../../web/globals';
import type { BodyChunk, Capture, ConnectionRecord, HttpHeader } from '../model';
import { encodeUtf8 } from '../text';
import { concatBytes } from '../bytes';
import { maskJsonSecrets, type MaskedSpan } from './body';
import { isInspectorEvents, maskRelaySecrets } from './relay';
import { redactHeaderValue, SESSION_HEADER } from './headers';
import { redactUrl } from './urls';

/** What a redacted session id becomes: numbered in order of first appearance, so grouping stays as it was. */
const ALIAS = /^redacted-session-\d+$/;
/** Shorter secrets are not scrubbed from other text: they would match too much of it. */
const MIN_SCRUBBED = 4;
const LOOSE = new TextDecoder();
const LF = 0x0a;
const BACKSLASH = 0x5c;

/** A capture with its secrets hidden. */
export interface CaptureRedaction {
  /** The capture to write: same records, times and byte lengths, secrets replaced. */
  capture: Capture;
  /** Replaces, in other text (findings written along, error messages), every secret the redaction hid. */
  scrub(text: string): string;
}

class Hider {
  private readonly hidden = new Map<string, string>();
  private readonly aliases = new Map<string, string>();
  private readonly taken = new Set<string>();
  readonly note = (secret: string, shown: string): void => {
    if (secret !== shown && secret.length >= MIN_SCRUBBED) this.hidden.set(secret, shown);
  };

  constructor(capture: Capture) {
    for (const c of capture.connections) {
      for (const h of [...c.requestHeaders, ...(c.responseHeaders ?? [])])
        if (h.name.toLowerCase() === SESSION_HEADER && ALIAS.test(h.value)) this.taken.add(h.value);
    }
  }

  alias(sessionId: string): string {
    if (ALIAS.test(sessionId)) return sessionId;
    let alias = this.aliases.get(sessionId);
    if (alias === undefined) {
      let n = this.aliases.size + 1;
      while (this.taken.has(`redacted-session-${n}`)) n++;
      alias = `redacted-session-${n}`;
      this.taken.add(alias);
      this.aliases.set(sessionId, alias);
      this.note(sessionId, alias);
    }
    return alias;
  }

  headers(headers: readonly HttpHeader[]): HttpHeader[] {
    return headers.map((h) => {
      const value =
        h.name.toLowerCase() === SESSION_HEADER ? this.alias(h.value) : redactHeaderValue(h.name, h.value, this.note);
      return value === h.value ? h : { name: h.name, value };
    });
  }

  url(url: string): string {
    return redactUrl(url, this.note);
  }

  /** @param relay the bytes are a relay's reports (relay.ts): their headers, URLs and string bodies are masked too. */
  bytes(bytes: Uint8Array, relay = false): Uint8Array {
    const spans: MaskedSpan[] = [];
    const json = maskJsonSecrets(bytes, spans);
    const masked = relay ? maskRelaySecrets(json, spans) : json;
    for (const { from, to } of spans)
      this.note(LOOSE.decode(bytes.subarray(from, to)), LOOSE.decode(masked.subarray(from, to)));
    return masked;
  }

  text(text: string): string {
    const bytes = encodeUtf8(text);
    const masked = this.bytes(bytes);
    return masked === bytes ? text : LOOSE.decode(masked);
  }

  /**
   * The body masked chunk by chunk, at the same boundaries and times. maskJsonSecrets starts afresh after a line feed
   * that no backslash escapes (a string it reads ends at a line break unless the byte before escapes it), so each
   * chunk's lines are masked in place between such line feeds, and only a line cut by chunk boundaries is joined: no
   * copy of the whole body.
   */
  chunks(chunks: readonly BodyChunk[], relay = false): BodyChunk[] {
    const out = [...chunks];
    const copy = (index: number): Uint8Array => {
      const chunk = out[index] as BodyChunk;
      if (chunk === chunks[index]) out[index] = { t: chunk.t, bytes: chunk.bytes.slice() };
      return (out[index] as BodyChunk).bytes;
    };
    const maskPart = (index: number, from: number, to: number): void => {
      const part = (chunks[index] as BodyChunk).bytes.subarray(from, to);
      const masked = this.bytes(part, relay);
      if (masked !== part) copy(index).set(masked, from);
    };
    /** The line cut by chunk boundaries so far: [chunk index, from, to] of each of its parts. */
    let cut: [number, number, number][] = [];
    const maskCut = (): void => {
      if (cut.length === 1) {
        const [index, from, to] = cut[0] as [number, number, number];
        maskPart(index, from, to);
      } else if (cut.length > 1) {
        const parts = cut.map(([index, from, to]) => (chunks[index] as BodyChunk).bytes.subarray(from, to));
        const whole = concatBytes(parts);
        const masked = this.bytes(whole, relay);
        let at = 0;
        for (const [index, from, to] of cut) {
          if (masked !== whole) copy(index).set(masked.subarray(at, at + to - from), from);
          at += to - from;
        }
      }
      cut = [];
    };
    chunks.forEach(({ bytes }, index) => {
      const first = lineEnd(bytes, 1, 1);
      if (first === -1) {
        if (bytes.length > 0) cut.push([index, 0, bytes.length]);
        return;
      }
      cut.push([index, 0, first + 1]);
      maskCut();
      const last = lineEnd(bytes, bytes.length - 1, -1);
      if (last > first) maskPart(index, first + 1, last + 1);
      if (last + 1 < bytes.length) cut.push([index, last + 1, bytes.length]);
    });
    maskCut();
    return out;
  }

  scrub = (text: string): string => {
    let out = text;
    // Longest first: a secret that contains another is replaced whole.
    const secrets = [...this.hidden].sort(([a], [b]) => b.length - a.length);
    for (const [secret, shown] of secrets) out = out.split(secret).join(shown);
    return out;
  };
}

/**
 * The first (step 1) or last (step -1) line feed from `from` on whose byte before is in the chunk and no backslash,
 * or -1: after such a line feed maskJsonSecrets reads as if the body started there.
 */
function lineEnd(bytes: Uint8Array, from: number, step: 1 | -1): number {
  let at = step === 1 ? bytes.indexOf(LF, from) : bytes.lastIndexOf(LF, from);
  while (at >= 1 && bytes[at - 1] === BACKSLASH)
    at = step === 1 ? bytes.indexOf(LF, at + 1) : bytes.lastIndexOf(LF, at - 1);
  return at >= 1 ? at : -1;
}

function redactConnection(c: ConnectionRecord, hider: Hider): ConnectionRecord {
  const out: ConnectionRecord = {
    ...c,
    url: hider.url(c.url),
    requestHeaders: hider.headers(c.requestHeaders),
    chunks: hider.chunks(c.chunks, isInspectorEvents(c.url)),
  };
  if (c.requestBody !== undefined) out.requestBody = hider.text(c.requestBody);
  if (c.responseHeaders) out.responseHeaders = hider.headers(c.responseHeaders);
  if (c.documentUrl !== undefined) out.documentUrl = hider.url(c.documentUrl);
  return out;
}

/**
 * Hides the capture's secrets for export (docs/redaction.md): credential headers, URL credentials, Mcp-Session-Id
 * (an alias), credential fields in bodies (a same-length mask). Findings of the result equal the original's, with
 * the aliases in place of the session ids.
 */
export function redactCapture(capture: Capture): CaptureRedaction {
  const hider = new Hider(capture);
  const connections = capture.connections.map((c) => redactConnection(c, hider));
  const out: Capture = { ...capture, connections };
  if (capture.page) out.page = { ...capture.page, url: hider.url(capture.page.url) };
  // Free text last, once every secret is known: an error message may quote a URL.
  for (const c of connections) {
    if (c.error !== undefined) c.error = hider.scrub(c.error);
    if (c.statusText !== undefined) c.statusText = hider.scrub(c.statusText);
  }
  if (out.page?.title !== undefined) out.page.title = hider.scrub(out.page.title);
  return { capture: out, scrub: hider.scrub };
}

/** `value` with `scrub` applied to every string in it (findings written along with a redacted capture). */
export function scrubStrings<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubStrings(item, scrub)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = scrubStrings(item, scrub);
    return out as T;
  }
  return value;
}
