// Runs anywhere (pure core): where a JSON-RPC message's ids sit in its bytes, so a replay can give them to another
// client without re-encoding the message (every other byte stays as recorded). Tolerates a message cut short (a
// torn event): what was complete before the cut is found, a value the cut went through is not.
import { TextDecoder } from '../web/globals';
import type { JsonRpcId } from '../mcp/types';

/** A byte range [start, end) of a body. */
export interface Span {
  start: number;
  end: number;
}

/** What a replay may rewrite: a response's id, a server request's id, a progress notification's token. */
export type SiteKind = 'response-id' | 'request-id' | 'progress-token';

/** One id in the body, with its recorded value. */
export interface IdSite extends Span {
  kind: SiteKind;
  value: JsonRpcId;
}

interface Container {
  isArray: boolean;
  /** The key whose value this container is (objects' members only). */
  key?: string;
  expectKey: boolean;
  pendingKey?: string;
  /** Set on a message object: what was found in it so far. */
  message?: MessageFacts;
  /** Set on a message's `params` object. */
  paramsOf?: MessageFacts;
}

interface MessageFacts {
  id?: { span: Span; value: JsonRpcId };
  method?: string;
  answers: boolean;
  progressToken?: { span: Span; value: JsonRpcId };
}

const utf8 = new TextDecoder();
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The id sites of the JSON-RPC message (or batch) in `bytes[start, end)`: top-level objects, or the objects of a
 * top-level array. A message with a method and an id is a server request; one without a method that has an id and
 * a result or error (or an id only, when the cut came first) is a response; `notifications/progress` gives its token.
 */
export function findIdSites(bytes: Uint8Array, start: number, end: number): IdSite[] {
  const sites: IdSite[] = [];
  const stack: Container[] = [];
  const done = (facts: MessageFacts, complete: boolean): void => {
    sites.push(...sitesOf(facts, complete));
  };
  let i = start;
  while (i < end) {
    const c = bytes[i] as number;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      i += 1;
      continue;
    }
    const top = stack.at(-1);
    if (c === QUOTE) {
      const close = stringEnd(bytes, i, end);
      if (close < 0) break; // cut inside a string
      if (top && !top.isArray && top.expectKey) {
        top.pendingKey = utf8.decode(bytes.subarray(i + 1, close));
      } else {
        value(top, { start: i, end: close + 1 }, bytes);
      }
      i = close + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const isArray = c === 0x5b;
      const key = top && !top.isArray ? top.pendingKey : undefined;
      const container: Container = { isArray, expectKey: !isArray, ...(key !== undefined && { key }) };
      // A message is a top-level object, or an object directly inside a top-level batch.
      const atMessageLevel = stack.length === 0 || (stack.length === 1 && stack[0]?.isArray === true);
      if (!isArray && atMessageLevel) container.message = { answers: false };
      if (top?.message && (key === 'result' || key === 'error')) top.message.answers = true;
      if (top?.message && key === 'params' && !isArray) container.paramsOf = top.message;
      stack.push(container);
      i += 1;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      const closed = stack.pop();
      if (closed?.message) done(closed.message, true);
      i += 1;
      continue;
    }
    if (c === 0x3a) {
      if (top && !top.isArray) top.expectKey = false;
      i += 1;
      continue;
    }
    if (c === 0x2c) {
      if (top && !top.isArray) {
        top.expectKey = true;
        delete top.pendingKey;
      }
      i += 1;
      continue;
    }
    let stop = i;
    while (stop < end && !isDelimiter(bytes[stop] as number)) stop += 1;
    if (stop === end) break; // a number or literal the cut may have shortened
    value(top, { start: i, end: stop }, bytes);
    i = stop;
  }
  // Messages the cut left open: what they showed before it.
  for (const open of stack) if (open.message) done(open.message, false);
  return sites;
}

function value(top: Container | undefined, span: Span, bytes: Uint8Array): void {
  if (!top || top.isArray) return;
  const key = top.pendingKey;
  if (top.message) {
    if (key === 'id') {
      const id = parseId(bytes, span);
      if (id !== undefined) top.message.id = { span, value: id };
    } else if (key === 'method') {
      const method = parseJson(bytes, span);
      if (typeof method === 'string') top.message.method = method;
    } else if (key === 'result' || key === 'error') top.message.answers = true;
  } else if (top.paramsOf && key === 'progressToken') {
    const token = parseId(bytes, span);
    if (token !== undefined) top.paramsOf.progressToken = { span, value: token };
  }
}

function sitesOf(facts: MessageFacts, complete: boolean): IdSite[] {
  const out: IdSite[] = [];
  const { id, method, progressToken } = facts;
  if (id && method !== undefined) out.push({ kind: 'request-id', value: id.value, ...id.span });
  // A message cut before its method or result could show is taken for a response only when nothing says otherwise.
  if (id && method === undefined && (facts.answers || !complete))
    out.push({ kind: 'response-id', value: id.value, ...id.span });
  if (progressToken && method === 'notifications/progress')
    out.push({ kind: 'progress-token', value: progressToken.value, ...progressToken.span });
  return out;
}

/** The index of the closing quote of the string opening at `open`, or -1 when `end` comes first. */
function stringEnd(bytes: Uint8Array, open: number, end: number): number {
  for (let i = open + 1; i < end; i += 1) {
    const c = bytes[i];
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i;
  }
  return -1;
}

function isDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function parseJson(bytes: Uint8Array, span: Span): unknown {
  try {
    return JSON.parse(utf8.decode(bytes.subarray(span.start, span.end))) as unknown;
  } catch {
    return undefined; // not a JSON value: no id to rewrite
  }
}

function parseId(bytes: Uint8Array, span: Span): JsonRpcId | undefined {
  const id = parseJson(bytes, span);
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}
