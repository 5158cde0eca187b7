// Panel: the panel's state, fed by the transport; what it receives goes on to the analysis worker, and the commands
// the background and the worker must hear about go to both.
import { useEffect } from 'preact/hooks';
import type { AnalysisClient } from '../analysis/client';
import type { Action, PanelState } from '../state/store';
import type { PanelTransport } from '../transport';

export function usePanelState(
  transport: PanelTransport,
  client: AnalysisClient,
  [state, dispatch]: [PanelState, (action: Action) => void],
) {
  useEffect(() => {
    transport.start({
      message: (message, owned) => {
        // The records go to the worker (buffers transferred when the transport gave them away); the page's URL,
        // preserve log and dropped bytes stay here.
        client.forward(message, owned === true);
        dispatch({ type: 'transport', message });
      },
      status: (status) => dispatch({ type: 'link', status }),
      breakAck: (ack) => dispatch({ type: 'break-ack', armId: ack.armId, taken: ack.taken }),
    });
    return () => transport.stop();
  }, [transport, client, dispatch]);

  const { tabId } = transport;
  // An imported file or a plain page has no tab: the change stays in the panel.
  const clear = () => {
    dispatch({ type: 'clear' });
    client.clear();
    if (tabId !== undefined) transport.send({ type: 'clear', tabId });
  };
  const setPreserveLog = (preserve: boolean) => {
    dispatch({ type: 'set-preserve-log', preserve });
    if (tabId !== undefined) transport.send({ type: 'set-preserve-log', tabId, preserve });
  };
  const toggleRecording = () => {
    dispatch({ type: 'toggle-recording' });
    client.recording(!state.recording);
  };
  const backToLive = () => {
    dispatch({ type: 'back-to-live' });
    client.clear();
    transport.reattach();
  };
  return { state, dispatch, live: tabId !== undefined, clear, setPreserveLog, toggleRecording, backToLive };
}
