// Runs anywhere (pure core): the library entry, `import { analyze } from 'mcp-stream-inspector'`.
// Touches no window, document, chrome, browser or node: APIs.
export { analyze, createAnalyzer, type Analysis, type AnalysisOptions, type Analyzer } from './analyze';
export { DEFAULT_SILENCE, type SilenceThresholds } from './model/silence';
export { rules } from './guard';
export { atLeast, mostSevere, SEVERITIES, severityRank } from './guard/severity';
export { SseParser, type SseEvent, type SseTail } from './sse';

export { InputError } from './capture/errors';
export { parseCapture, serializeCapture, SUPPORTED_CAPTURE_VERSIONS } from './capture/format';
export { exportHar, importHar, type HarImportOptions } from './capture/har';
export { importRawStream } from './capture/raw';
export { loadInput, type InputKind, type LoadOptions } from './capture/load';
export { decodeBase64, encodeBase64 } from './capture/base64';
export { otherStreamEvents } from './model/other-streams';

export {
  CAPTURE_FORMAT,
  CAPTURE_VERSION,
  TOOL_NAME,
  type BodyChunk,
  type Capture,
  type CaptureGap,
  type ConnectionRecord,
  type EndReason,
  type GapCause,
  type HttpHeader,
  type RecordSource,
} from './capture/model';
export type { Era, JsonRpcEnvelope, JsonRpcId, JsonRpcMessage } from './mcp/types';
export type { IdScheme } from './ids/scheme';
export type {
  ConnectionRole,
  ConnectionView,
  EventList,
  EventView,
  Model,
  OtherStreamKind,
  OtherStreamView,
  Notice,
  SessionView,
  StreamView,
} from './model/types';
export type { Finding, FindingLocation, Report, Rule, RuleMeta, Severity } from './guard/types';
export type { ReconnectBehaviour } from './guard/reconnects';
export { reconnectSummary } from './guard/reconnects';
