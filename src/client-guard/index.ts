// Runs anywhere (browsers, Node, Workers): the client guard's entry, `import { createClientGuard } from
// 'mcp-stream-inspector/client-guard'`. Touches no DOM and no Node API beyond fetch and web streams.
export { createClientGuard, type ClientGuard, type ClientGuardOptions, type GuardFinding } from './client-guard';
export { isResumptionRejected, ResumptionRejectedError, type RejectionDetails, type RejectionRule } from './errors';
export type { ReissuePolicy } from './reissue';
export type { FetchLike } from './request';
