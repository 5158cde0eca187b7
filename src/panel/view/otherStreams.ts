// Panel (pure): how the SSE streams that are not MCP are named in the sessions column and the empty state.
import type { OtherStreamKind } from '../../core/model/types';

const KIND_LABELS: Record<OtherStreamKind, string> = {
  'openai-chat': 'OpenAI-style completions',
  'anthropic-messages': 'Anthropic-style messages',
  'mcp-inspector': 'MCP Inspector backend',
};

/** What a stream is, as its row names it: its known kind, else plainly "SSE stream". */
export function otherStreamLabel(kind: OtherStreamKind | undefined): string {
  return kind ? KIND_LABELS[kind] : 'SSE stream';
}

/** A URL without its scheme and query ("api.example.com/v1/chat/completions"); the full one goes in a title. */
export function shortUrl(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[?#].*$/, '');
}

/** "1 other stream", "3 other streams". */
export function otherStreamsCount(n: number): string {
  return `${n} other stream${n === 1 ? '' : 's'}`;
}

/** The empty state's line when no MCP traffic was seen: undefined when there is nothing else either. */
export function noMcpLine(others: number): string | undefined {
  if (others === 0) return undefined;
  const listed = others === 1 ? 'is listed below' : 'are listed below';
  return `No MCP traffic on this page yet. ${otherStreamsCount(others)} (not MCP) ${listed}.`;
}
