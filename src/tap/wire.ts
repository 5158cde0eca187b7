// Runs in the page MAIN world and the isolated world: the DOM event names the tap and the bridge talk over.
// A CustomEvent on window, not window.postMessage: page 'message' listeners never see the inspector's traffic.

/** Tap -> bridge; `detail` is a JSON string of TapToBridge. */
export const TAP_EVENT = 'mcp-stream-inspector:tap';
/** Bridge -> tap; `detail` is a JSON string of BridgeToTap. */
export const BRIDGE_EVENT = 'mcp-stream-inspector:bridge';
export const TAP_SOURCE = 'mcp-stream-inspector/tap';
export const BRIDGE_SOURCE = 'mcp-stream-inspector/bridge';
