// Runs anywhere (pure core): reads a `--fault` spec, `NAME[:VALUE][@every][,method=METHOD]`, into a Fault, or
// says precisely what is wrong with it.
import type { Fault, RequestMatch } from './fault';

/** The JSON-RPC method a cut or a delay strikes unless `,method=` names another. */
export const DEFAULT_MATCH: RequestMatch = { method: 'tools/call' };
/** Bytes into the data of the struck event when `cut-mid-event` gives none (as the lab's scenario). */
export const DEFAULT_CUT_BYTES = 60;
/** The statuses `resume-status` answers with. */
export const RESUME_STATUSES: readonly number[] = [400, 404, 409];

/** Each fault's syntax, in the order the help lists them. */
export const FAULT_SYNTAX: readonly string[] = [
  'cut-mid-event[:BYTES]',
  'cut-at-boundary[:EVENTS]',
  'drop-first-replayed[:EVENTS]',
  'replay-cursor',
  `resume-status:${RESUME_STATUSES.join('|')}`,
  'resume-silent',
  'close-resumes',
  'restart-epoch[:EPOCH]',
  'delay:MS',
  'buffer[:body]',
  'stall:MS',
  'idle-cut:SECONDS',
  'drop-listen-ack',
  'inject-server-request',
  'set-header:NAME=VALUE',
  'alter-request-state',
  'add-event-ids[:RETRY_MS]',
  'rewrite-response-id',
];

export type FaultParse = { ok: true; fault: Fault } | { ok: false; error: string };

const fail = (error: string): FaultParse => ({ ok: false, error });
const WHOLE = /^\d{1,9}$/;
/** Seconds to the millisecond: `30`, `2.5`, `0.25`. */
const SECONDS = /^\d{1,6}(\.\d{1,3})?$/;
const EPOCH = /^[A-Za-z0-9_-]{1,32}$/;
const STRIKES_REQUESTS = new Set([
  'cut-mid-event',
  'cut-at-boundary',
  'delay',
  'buffer',
  'stall',
  'idle-cut',
  'inject-server-request',
  'set-header',
  'add-event-ids',
  'rewrite-response-id',
]);
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const HEADER_VALUE = /^[\x20-\x2b\x2d-\x7e]{0,256}$/;
const KNOWN = new Set(FAULT_SYNTAX.map((syntax) => /^[a-z-]+/.exec(syntax)?.[0]));

/** Parses one `--fault` value; errors name the part that is wrong and what would be right. */
export function parseFaultSpec(text: string): FaultParse {
  if (text.trim() === '') return fail(`a fault is needed, one of ${FAULT_SYNTAX.join(', ')}`);
  const [head = '', ...options] = text.split(',');
  const every = head.endsWith('@every');
  const bare = every ? head.slice(0, -'@every'.length) : head;
  if (bare.includes('@')) return fail(`"${bare.slice(bare.indexOf('@'))}" is not a suffix; the only one is @every`);
  const colon = bare.indexOf(':');
  const name = colon === -1 ? bare : bare.slice(0, colon);
  const value = colon === -1 ? undefined : bare.slice(colon + 1);
  if (!KNOWN.has(name)) return fail(`unknown fault "${name}"; known: ${FAULT_SYNTAX.join(', ')}`);
  const match = parseOptions(name, options);
  if (typeof match === 'string') return fail(match);
  const shared = { spec: text, every };
  switch (name) {
    case 'cut-mid-event': {
      const bytes = wholeNumber(value, 'BYTES', DEFAULT_CUT_BYTES, 0);
      if (typeof bytes === 'string') return fail(bytes);
      return ok({ ...shared, kind: name, match, after: { count: 0 }, at: { dataBytes: bytes } });
    }
    case 'cut-at-boundary': {
      const events = wholeNumber(value, 'EVENTS', 1, 1);
      if (typeof events === 'string') return fail(events);
      return ok({ ...shared, kind: name, match, after: { count: events }, at: 'boundary' });
    }
    case 'drop-first-replayed': {
      const count = wholeNumber(value, 'EVENTS', 1, 1);
      if (typeof count === 'string') return fail(count);
      return ok({ ...shared, kind: name, count });
    }
    case 'resume-status': {
      const status = Number(value);
      if (value === undefined || !RESUME_STATUSES.includes(status))
        return fail(`resume-status needs a status: ${RESUME_STATUSES.map((s) => `resume-status:${s}`).join(', ')}`);
      return ok({ ...shared, kind: name, status });
    }
    case 'restart-epoch':
      if (value !== undefined && !EPOCH.test(value))
        return fail(`EPOCH "${value}" must be 1 to 32 letters, digits, "-" or "_" (no ":")`);
      return ok({ ...shared, kind: name, ...(value !== undefined && { epoch: value }) });
    case 'delay': {
      const ms = wholeNumber(value, 'MS', undefined, 1);
      if (typeof ms === 'string') return fail(ms);
      return ok({ ...shared, kind: name, match, ms });
    }
    case 'buffer':
      if (value !== undefined && value !== 'body')
        return fail(
          `buffer takes no value (the head and the body held until the end) or ":body" (the head sent at once); got ":${value}"`,
        );
      return ok({ ...shared, kind: name, match, holdHead: value === undefined });
    case 'stall': {
      const ms = wholeNumber(value, 'MS', undefined, 1);
      if (typeof ms === 'string') return fail(ms);
      return ok({ ...shared, kind: name, match, ms });
    }
    case 'idle-cut': {
      const ms = seconds(value);
      if (typeof ms === 'string') return fail(ms);
      // `@every` with no ,method= is an intermediary's idle timeout: it cuts every event stream, GETs included.
      return ok({ ...shared, kind: name, match, ms, anyStream: every && match === DEFAULT_MATCH });
    }
    case 'add-event-ids': {
      if (value === undefined) return ok({ ...shared, kind: name, match });
      const retryMs = wholeNumber(value, 'RETRY_MS', undefined, 0);
      if (typeof retryMs === 'string') return fail(retryMs);
      return ok({ ...shared, kind: name, match, retryMs });
    }
    case 'rewrite-response-id':
    case 'inject-server-request':
      if (value !== undefined) return fail(`${name} takes no value (got ":${value}")`);
      return ok({ ...shared, kind: name, match });
    case 'set-header': {
      const eq = value === undefined ? -1 : value.indexOf('=');
      const header = value === undefined || eq === -1 ? '' : value.slice(0, eq);
      const headerValue = value === undefined || eq === -1 ? '' : value.slice(eq + 1);
      if (!HEADER_NAME.test(header) || !HEADER_VALUE.test(headerValue))
        return fail(
          'set-header needs NAME=VALUE: a header name of letters, digits and "-", a printable value without ","',
        );
      return ok({ ...shared, kind: name, header, value: headerValue, match });
    }
    case 'close-resumes':
      // Every resume, by its name: a server that closes each one at once is what it stands for (@every is implied).
      if (value !== undefined) return fail(`${name} takes no value (got ":${value}")`);
      return ok({ ...shared, kind: name, every: true });
    case 'drop-listen-ack':
    case 'alter-request-state':
    case 'replay-cursor':
    case 'resume-silent':
      if (value !== undefined) return fail(`${name} takes no value (got ":${value}")`);
      return ok({ ...shared, kind: name });
    default:
      return fail(`unknown fault "${name}"; known: ${FAULT_SYNTAX.join(', ')}`);
  }
}

function ok(fault: Fault): FaultParse {
  return { ok: true, fault };
}

/** The `,method=NAME` suffix: only requests are struck by method, and never initialize. */
function parseOptions(name: string, options: string[]): RequestMatch | string {
  let match = DEFAULT_MATCH;
  for (const option of options) {
    const eq = option.indexOf('=');
    const key = eq === -1 ? option : option.slice(0, eq);
    if (key !== 'method') return `unknown option "${option}"; the only one is ,method=NAME`;
    const method = option.slice(eq + 1);
    if (eq === -1 || method === '') return 'method= needs a JSON-RPC method name, e.g. ,method=tools/call';
    if (method === 'initialize') return 'faults never strike the initialize exchange (,method=initialize)';
    if (name === 'drop-listen-ack' || name === 'alter-request-state')
      return `${name} strikes the first ${name === 'drop-listen-ack' ? 'subscriptions/listen stream' : 'request echoing a requestState'}: ,method= does not apply to it`;
    if (!STRIKES_REQUESTS.has(name))
      return `${name} strikes the first resume after a cut, not a request: ,method= applies to cut-mid-event, cut-at-boundary, delay, buffer, stall, idle-cut, inject-server-request, set-header, add-event-ids and rewrite-response-id`;
    match = { method };
  }
  return match;
}

/** `idle-cut`'s SECONDS, in milliseconds: more than 0, at most three decimals. */
function seconds(value: string | undefined): number | string {
  if (value === undefined) return 'SECONDS is needed (idle-cut:30 cuts a stream after 30 s with no byte forwarded)';
  const ms = Math.round(Number(value) * 1000);
  if (!SECONDS.test(value) || ms < 1)
    return `SECONDS "${value}" must be a number of seconds above 0, at most 3 decimals (30, 2.5)`;
  return ms;
}

function wholeNumber(value: string | undefined, label: string, fallback: number | undefined, min: number) {
  if (value === undefined) {
    return fallback ?? `${label} is needed (a whole number >= ${min})`;
  }
  if (!WHOLE.test(value) || Number(value) < min) return `${label} "${value}" must be a whole number >= ${min}`;
  return Number(value);
}
