// Runs in Node: the replay's library entry, `import { startReplay } from 'mcp-stream-inspector/replay'`, for test
// fixtures and benches: a capture served again on 127.0.0.1 to any client (docs/replay.md).
export { startReplay, type ReplayOptions, type ReplayServer } from './replay-server';
export type { Divergence, DivergenceAnswer, DivergenceKind } from '../core/replay/divergence';
