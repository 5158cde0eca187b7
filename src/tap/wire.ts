// Page MAIN world: the event names of src/protocol/events.ts, written here because the tap imports only types;
// the literal types make the compiler reject any drift between the two.
import type { BridgeHelloEventName, BridgeSource, TapPortEventName, TapSlabBytes, TapSource } from '../protocol/events';

export const TAP_PORT_EVENT: TapPortEventName = 'mcp-stream-inspector:port';
export const BRIDGE_HELLO_EVENT: BridgeHelloEventName = 'mcp-stream-inspector:hello';
export const TAP_SOURCE: TapSource = 'mcp-stream-inspector/tap';
export const BRIDGE_SOURCE: BridgeSource = 'mcp-stream-inspector/bridge';
export const SLAB_BYTES: TapSlabBytes = 2_097_152;
