// Runs anywhere (pure core): the SSE parser's public surface; no DOM, no Node APIs.
export { SseParser, parseSse } from './parser';
export type { SseEvent, SseTail } from './types';
