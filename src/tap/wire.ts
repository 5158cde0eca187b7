// Page MAIN world: the event names of src/protocol/events.ts, written here because the tap imports only types;
// the literal types make the compiler reject any drift between the two.
import type { BridgeEventName, BridgeSource, TapEventName, TapSource } from '../protocol/events';

export const TAP_EVENT: TapEventName = 'mcp-stream-inspector:tap';
export const BRIDGE_EVENT: BridgeEventName = 'mcp-stream-inspector:bridge';
export const TAP_SOURCE: TapSource = 'mcp-stream-inspector/tap';
export const BRIDGE_SOURCE: BridgeSource = 'mcp-stream-inspector/bridge';
