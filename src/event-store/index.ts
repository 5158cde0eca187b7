// Runs in any server runtime: the library entry `mcp-stream-inspector/event-store`, the epoch event store in memory
// and the resume pre-checks. Imports no SDK and no Redis client (the Redis store is `mcp-stream-inspector/event-store/redis`).
export {
  createEpochEventStore,
  EPOCH_STORE_DEFAULTS,
  type EpochEventStore,
  type EpochEventStoreOptions,
  type EpochEventStoreStats,
} from './memory';
export {
  refusalBody,
  refusalResponse,
  RESUME_REFUSED_STATUS,
  ResumeRefusedError,
  RESUMPTION_REJECTED_CODE,
  type RefusalBody,
} from './refusal';
export { refuseStaleResume } from './web';
export { refuseStaleResumeNode, type NodeRequestLike, type NodeResponseLike } from './node';
export type { EventMessage, GuardedEventStore, Refusal, RefusalReason, SdkEventStore } from './types';
