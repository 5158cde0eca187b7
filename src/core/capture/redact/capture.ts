// Runs anywhere (pure core): a capture with its secrets hidden, for export. Headers and URLs get `‹redacted:3f2a›`
// tags (the tap did it at the source already, unless the user opted in), Mcp-Session-Id a stable alias, and bodies
// same-length masks (body.ts), so analyzing the result finds what the original had, with the aliases in place of
// the session ids.
import { TextDecoder } from '../../web/globals';
import type { BodyChunk, Capture, ConnectionRecord, HttpHeader } from '../model';
import { encodeUtf8 } from '../text';
import { mayHoldSecretsInPart, maskJsonSecrets, type MaskedSpan } from './body';
import { BodyMasker, type OnMasked, type PartMask } from './body-stream';
import { isInspectorEvents, maskRelaySecrets } from './relay';
import { redactHeaderValue, SESSION_HEADER } from './headers';
import { redactUrl } from './urls';

/** What a redacted session id becomes: numbered in order of first appearance, so grouping stays as it was. */
const ALIAS = /^redacted-session-\d+$/;
/** Shorter secrets are not scrubbed from other text: they would match too much of it. */
const MIN_SCRUBBED = 4;
const LOOSE = new TextDecoder();

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

  /** Aliases the capture already holds (redacted before) are not given again. */
  reserve(capture: Capture): void {
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
  bytes(bytes: Uint8Array, relay = false, spans: MaskedSpan[] = []): Uint8Array {
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

  /** The body masked chunk by chunk, at the same boundaries and times (body-stream.ts); masked chunks are copies. */
  chunks(chunks: readonly BodyChunk[], relay = false): BodyChunk[] {
    const out = [...chunks];
    const masker = new BodyMasker<number>(this.partMask(relay), (index, from, mask) => {
      let chunk = out[index] as BodyChunk;
      if (chunk === chunks[index]) out[index] = chunk = { t: chunk.t, bytes: new Uint8Array(chunk.bytes) };
      chunk.bytes.set(mask, from);
    });
    chunks.forEach(({ bytes }, index) => masker.push(index, bytes));
    masker.end();
    return out;
  }

  /** A masker of a body's pieces whose secrets this hider notes; `onMasked` places each mask. */
  bodyMasker<P>(onMasked: OnMasked<P>): BodyMasker<P> {
    // Without the relay's patterns the mask is maskJsonSecrets, whose prefilter has a form for parts of a line.
    return new BodyMasker(this.partMask(false), onMasked, mayHoldSecretsInPart);
  }

  private partMask(relay: boolean): PartMask {
    return (bytes, spans) => this.bytes(bytes, relay, spans);
  }

  scrub = (text: string): string => {
    let out = text;
    // Longest first: a secret that contains another is replaced whole.
    const secrets = [...this.hidden].sort(([a], [b]) => b.length - a.length);
    for (const [secret, shown] of secrets) out = out.split(secret).join(shown);
    return out;
  };
}

function redactConnection(c: ConnectionRecord, hider: Hider, bodyMasked: boolean): ConnectionRecord {
  const out: ConnectionRecord = {
    ...c,
    url: hider.url(c.url),
    requestHeaders: hider.headers(c.requestHeaders),
    chunks: bodyMasked ? c.chunks : hider.chunks(c.chunks, isInspectorEvents(c.url)),
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
  return createRedactor().redact(capture);
}

/** One redaction whose bodies may be masked ahead, as they are read (the CLI's raw files), by the same hider. */
export interface Redactor {
  /**
   * A masker for a body read piece by piece: `onMasked` gets each mask to place (a relay's reports are not masked
   * this way: their records are masked by {@link Redactor.redact}).
   */
  bodyMasker<P>(onMasked: OnMasked<P>): BodyMasker<P>;
  /**
   * {@link redactCapture}, with the records in `bodyMasked` (ids) taken as masked already by a body masker of this
   * redactor: their chunks are kept as they are.
   */
  redact(capture: Capture, bodyMasked?: ReadonlySet<string>): CaptureRedaction;
}

export function createRedactor(): Redactor {
  const hider = new Hider();
  return {
    bodyMasker: (onMasked) => hider.bodyMasker(onMasked),
    redact(capture, bodyMasked) {
      hider.reserve(capture);
      const connections = capture.connections.map((c) =>
        redactConnection(c, hider, bodyMasked?.has(c.id) === true && !isInspectorEvents(c.url)),
      );
      const out: Capture = { ...capture, connections };
      if (capture.page) out.page = { ...capture.page, url: hider.url(capture.page.url) };
      // Free text last, once every secret is known: an error message may quote a URL.
      for (const c of connections) {
        if (c.error !== undefined) c.error = hider.scrub(c.error);
        if (c.statusText !== undefined) c.statusText = hider.scrub(c.statusText);
      }
      if (out.page?.title !== undefined) out.page.title = hider.scrub(out.page.title);
      return { capture: out, scrub: hider.scrub };
    },
  };
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
