// Runs in Node (lab proxy): every fault, by scenario name.
import type { ScenarioName } from '../../scenarios';
import type { FaultSpec } from '../fault-spec';
import { clean } from './clean';
import { cutMidEvent } from './cut-mid-event';
import { epochRestartClamp } from './epoch-restart-clamp';
import { epochRestartFresh } from './epoch-restart-fresh';
import { evictedFreshEvent } from './evicted-fresh-event';
import { legacySse } from './legacy-sse';
import { orphanedElicitation } from './orphaned-elicitation';
import { aiSdkCloseNotResumed, resumeAfterError, serverCloseNotResumed, serverCloseResumed } from './reconnects';
import { replayBoundary } from './replay-boundary';
import { resume404 } from './resume-404';
import { resume409 } from './resume-409';
import { skipOnResume } from './skip-on-resume';

export const faults: Record<ScenarioName, FaultSpec> = {
  clean,
  'cut-mid-event': cutMidEvent,
  'replay-boundary': replayBoundary,
  'evicted-fresh-event': evictedFreshEvent,
  'epoch-restart-clamp': epochRestartClamp,
  'epoch-restart-fresh': epochRestartFresh,
  'skip-on-resume': skipOnResume,
  'resume-409': resume409,
  'resume-404': resume404,
  'orphaned-elicitation': orphanedElicitation,
  'legacy-sse': legacySse,
  'resume-after-error': resumeAfterError,
  'server-close-resumed': serverCloseResumed,
  'server-close-not-resumed': serverCloseNotResumed,
  'ai-sdk-close-not-resumed': aiSdkCloseNotResumed,
};
