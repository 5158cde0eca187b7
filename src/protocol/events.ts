// Runs in the page MAIN world and the isolated world: the DOM event names the tap and the bridge talk over.
// A CustomEvent on window, not window.postMessage: page 'message' listeners never see the inspector's traffic.
// The tap imports only types (it is a standalone script in the page), so each name is also a literal type: the tap
// writes the literal again against that type, and the compiler proves both sides agree.

/** Tap -> bridge; `detail` is a JSON string of TapToBridge. */
export const TAP_EVENT = 'mcp-stream-inspector:tap';
/** Bridge -> tap; `detail` is a JSON string of BridgeToTap. */
export const BRIDGE_EVENT = 'mcp-stream-inspector:bridge';
export const TAP_SOURCE = 'mcp-stream-inspector/tap';
export const BRIDGE_SOURCE = 'mcp-stream-inspector/bridge';

export type TapEventName = typeof TAP_EVENT;
export type BridgeEventName = typeof BRIDGE_EVENT;
export type TapSource = typeof TAP_SOURCE;
export type BridgeSource = typeof BRIDGE_SOURCE;
