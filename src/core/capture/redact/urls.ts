// Runs anywhere (pure core): credentials in a URL: the userinfo (`user:password@`) and query or fragment
// parameters named like credentials. Works on the text (no URL parser: the tap re-states it with no built-in a page
// could replace, src/tap/redact.ts), so the rest of the URL stays byte for byte what it was.
import { redactedTag, REDACTED_TAG } from './hash';
import type { NoteHidden } from './headers';

/** Parameter names (whole, any case): access_token, token, api_key, key, code, password, *_TOKEN, signature, ... */
export const SECRET_PARAM_NAME =
  '^(?:access_token|token|api[_-]?key|key|code|password|passwd|secret|client_secret|auth|signature|sig|.*_token|.*[_-]signature)$';
export type SecretParamName = typeof SECRET_PARAM_NAME;

const SECRET_PARAM = new RegExp(SECRET_PARAM_NAME, 'i');

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // Not percent-encoding after all: the name as written.
    return name;
  }
}

function redactParams(params: string, note: NoteHidden | undefined): string {
  return params
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq <= 0) return pair;
      const value = pair.slice(eq + 1);
      if (value === '' || REDACTED_TAG.test(value) || !SECRET_PARAM.test(decodeName(pair.slice(0, eq)))) return pair;
      const tag = redactedTag(value);
      note?.(value, tag);
      return `${pair.slice(0, eq + 1)}${tag}`;
    })
    .join('&');
}

/** `#access_token=…` (OAuth implicit flow) and `#/route?token=…` (hash routing) carry credentials too. */
function redactFragment(fragment: string, note: NoteHidden | undefined): string {
  const query = fragment.indexOf('?');
  if (query < 0) return redactParams(fragment, note);
  return fragment.slice(0, query + 1) + redactParams(fragment.slice(query + 1), note);
}

function redactUserinfo(head: string, note: NoteHidden | undefined): string {
  const scheme = head.indexOf('://');
  if (scheme < 0) return head;
  const start = scheme + 3;
  const slash = head.indexOf('/', start);
  const authorityEnd = slash < 0 ? head.length : slash;
  const at = head.lastIndexOf('@', authorityEnd - 1);
  if (at < start) return head;
  const userinfo = head.slice(start, at);
  if (userinfo === '' || REDACTED_TAG.test(userinfo)) return head;
  const tag = redactedTag(userinfo);
  note?.(userinfo, tag);
  return head.slice(0, start) + tag + head.slice(at);
}

/** The URL with its credentials replaced by `‹redacted:3f2a›` tags; the same string when it has none. */
export function redactUrl(url: string, note?: NoteHidden): string {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? undefined : url.slice(hash + 1);
  const q = beforeHash.indexOf('?');
  const head = q < 0 ? beforeHash : beforeHash.slice(0, q);
  const query = q < 0 ? undefined : beforeHash.slice(q + 1);
  return (
    redactUserinfo(head, note) +
    (query === undefined ? '' : `?${redactParams(query, note)}`) +
    (fragment === undefined ? '' : `#${redactFragment(fragment, note)}`)
  );
}
