// Page MAIN world, only while the Break menu has faults armed: the signal a faulted fetch is forwarded with, so a cut
// ends the real exchange. Cancelling the network body is not enough everywhere: Firefox (ESR 140) keeps the
// connection of a body cancelled while a read is pending until the server writes again, so the server never sees a
// quiet stream's idle cut (its resume then meets "409: stream already has an active connection"); aborting does end it.
import { bare } from '../intrinsics';
import type { Natives } from '../natives';

export interface Cutter {
  /** Forwarded with the page's own request (init.signal replaces its signal; nothing else changes). */
  init: RequestInit;
  /** Ends the network exchange. */
  abort(): void;
}

/** A signal that follows the page's (an abort by the page stays the page's, with its reason) and the fault's cut. */
export function cutterFor(natives: Natives, pageSignal: AbortSignal | undefined): Cutter {
  const controller = new natives.AbortController();
  if (pageSignal) {
    const follow = (): void => natives.abort(controller, natives.signalReason(pageSignal));
    if (natives.signalAborted(pageSignal)) follow();
    else natives.addListener(pageSignal, 'abort', follow, bare({ once: true }));
  }
  return {
    init: bare({ signal: natives.controllerSignal(controller) }),
    abort: () => natives.abort(controller),
  };
}
