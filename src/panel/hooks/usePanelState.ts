// Panel: the panel's state, fed by the transport, and the commands that the background must hear about too.
import { useEffect, useReducer } from 'preact/hooks';
import { initialState, reduce } from '../state/store';
import type { PanelTransport } from '../transport';

export function usePanelState(transport: PanelTransport) {
  const [state, dispatch] = useReducer(reduce, initialState);

  useEffect(() => {
    transport.start({
      message: (message) => dispatch({ type: 'transport', message }),
      status: (status) => dispatch({ type: 'link', status }),
    });
    return () => transport.stop();
  }, [transport]);

  const { tabId } = transport;
  // An imported file or a plain page has no tab: the change stays in the panel.
  const clear = () => {
    dispatch({ type: 'clear' });
    if (tabId !== undefined) transport.send({ type: 'clear', tabId });
  };
  const setPreserveLog = (preserve: boolean) => {
    dispatch({ type: 'set-preserve-log', preserve });
    if (tabId !== undefined) transport.send({ type: 'set-preserve-log', tabId, preserve });
  };
  const backToLive = () => {
    dispatch({ type: 'back-to-live' });
    transport.reattach();
  };
  return { state, dispatch, live: tabId !== undefined, clear, setPreserveLog, backToLive };
}
