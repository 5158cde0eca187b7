// Runs anywhere (pure core): the rule registry. Ids are kebab-case and never renamed.
import { bufferedStream } from './rules/buffered-stream';
import { captureGap } from './rules/capture-gap';
import { clientPostedResponse } from './rules/client-posted-response';
import { crossStreamReplay } from './rules/cross-stream-replay';
import { duplicateIdAcrossStreams } from './rules/duplicate-id-across-streams';
import { epochMismatch } from './rules/epoch-mismatch';
import { headerMismatchNotRejected } from './rules/header-mismatch-not-rejected';
import { idleTimeoutCut } from './rules/idle-timeout-cut';
import { incompleteJson } from './rules/incomplete-json';
import { listenNotAcknowledged } from './rules/listen-not-acknowledged';
import { methodHeaderMismatch } from './rules/method-header-mismatch';
import { orphanedServerRequest } from './rules/orphaned-server-request';
import { postStreamNotResumed } from './rules/post-stream-not-resumed';
import { legacyStreamLost } from './rules/legacy-stream-lost';
import { protocolVersionMismatch } from './rules/protocol-version-mismatch';
import { reconnectStorm } from './rules/reconnect-storm';
import { reissuedWithSameId } from './rules/reissued-with-same-id';
import { requestHang } from './rules/request-hang';
import { replayedEventDuplicate } from './rules/replayed-event-duplicate';
import { requestStateAltered } from './rules/request-state-altered';
import { responseIdMismatch } from './rules/response-id-mismatch';
import { resumeAfterAnswer } from './rules/resume-after-answer';
import { resumeIdGap } from './rules/resume-id-gap';
import { resumeNotHonored } from './rules/resume-not-honored';
import { resumptionRejected } from './rules/resumption-rejected';
import { retryIgnored } from './rules/retry-ignored';
import { serverRequestOnStream } from './rules/server-request-on-stream';
import { sessionNotReinitialized } from './rules/session-not-reinitialized';
import { staleCursorRetry } from './rules/stale-cursor-retry';
import { statelessEventIds } from './rules/stateless-event-ids';
import { statelessRequestNotReissued } from './rules/stateless-request-not-reissued';
import { statelessSessionHeaders } from './rules/stateless-session-headers';
import { tornEventReconnect } from './rules/torn-event-reconnect';
import { unansweredAfterDisconnect } from './rules/unanswered-after-disconnect';
import { unsolicitedResponse } from './rules/unsolicited-response';
import { versionFallback } from './rules/version-fallback';
import type { Rule } from './types';

/** Every guard rule, in the order they run; `analyze` runs them all unless given others. */
export const rules: readonly Rule[] = [
  tornEventReconnect,
  replayedEventDuplicate,
  resumeIdGap,
  resumeNotHonored,
  epochMismatch,
  incompleteJson,
  resumptionRejected,
  staleCursorRetry,
  orphanedServerRequest,
  unsolicitedResponse,
  crossStreamReplay,
  duplicateIdAcrossStreams,
  sessionNotReinitialized,
  unansweredAfterDisconnect,
  resumeAfterAnswer,
  retryIgnored,
  reconnectStorm,
  postStreamNotResumed,
  legacyStreamLost,
  versionFallback,
  statelessSessionHeaders,
  statelessRequestNotReissued,
  reissuedWithSameId,
  protocolVersionMismatch,
  methodHeaderMismatch,
  requestStateAltered,
  serverRequestOnStream,
  listenNotAcknowledged,
  clientPostedResponse,
  statelessEventIds,
  headerMismatchNotRejected,
  responseIdMismatch,
  requestHang,
  idleTimeoutCut,
  bufferedStream,
  captureGap,
];

/** The registered rule with this id, if any. */
export function ruleById(id: string): Rule | undefined {
  return rules.find((rule) => rule.id === id);
}
