// Runs in the page MAIN world and the isolated world: how the tap and the bridge find each other. At document_start,
// before any page script, the tap makes a MessageChannel and hands one port to the bridge in a MessageEvent of its own
// type, dispatched on window (synchronous; page 'message' listeners never see it). Everything after that travels over
// the port: deltas with their chunk buffers transferred, never encoded, and the bridge's settings back.
// The tap imports only types (it is a standalone script in the page), so each name is also a literal type: the tap
// writes the literal again against that type, and the compiler proves both sides agree.

/** Tap -> bridge: a MessageEvent whose `ports[0]` is the tap's channel. */
export const TAP_PORT_EVENT = 'mcp-stream-inspector:port';
/** Bridge -> tap: "I listen now" (the bridge started after the tap); the tap answers with TAP_PORT_EVENT once. */
export const BRIDGE_HELLO_EVENT = 'mcp-stream-inspector:hello';
export const TAP_SOURCE = 'mcp-stream-inspector/tap';
export const BRIDGE_SOURCE = 'mcp-stream-inspector/bridge';
/** The size of the tap's slabs (tap/slabs.ts): the buffers the bridge moves back to the tap once it is done. */
export const TAP_SLAB_BYTES = 2_097_152;

/**
 * The Playwright fixture's binding (page.exposeBinding): its receiver takes it from window at document_start and deletes
 * it before any page script runs, so the page never sees it (src/playwright/page/receiver.ts).
 */
export const RECORDER_BINDING = '__mcpStreamInspectorRecorder';

export type TapPortEventName = typeof TAP_PORT_EVENT;
export type BridgeHelloEventName = typeof BRIDGE_HELLO_EVENT;
export type TapSource = typeof TAP_SOURCE;
export type BridgeSource = typeof BRIDGE_SOURCE;
export type TapSlabBytes = typeof TAP_SLAB_BYTES;
