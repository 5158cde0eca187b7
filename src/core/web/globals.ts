// Runs anywhere (pure core): the WHATWG APIs the core uses beyond ECMAScript. Every runtime of the core has them
// (browsers, workers, Node >= 11), but the core is compiled against ES2023 alone (tsconfig.core.json: no DOM, no
// Node types) so that nothing else slips in; this file declares only what the core calls and takes it from globalThis.

export interface TextDecodeOptions {
  stream?: boolean;
}

export interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

export interface TextDecoder {
  decode(input?: Uint8Array, options?: TextDecodeOptions): string;
}

export interface TextEncoder {
  encode(input?: string): Uint8Array;
}

export interface URL {
  readonly href: string;
  readonly origin: string;
}

interface WebGlobals {
  TextDecoder: new (label?: string, options?: TextDecoderOptions) => TextDecoder;
  TextEncoder: new () => TextEncoder;
  URL: new (url: string, base?: string) => URL;
}

const web = globalThis as unknown as WebGlobals;

export const TextDecoder = web.TextDecoder;
export const TextEncoder = web.TextEncoder;
export const URL = web.URL;

/** The part of AbortSignal the core reads (it never makes one). */
export interface AbortSignal {
  readonly aborted: boolean;
  throwIfAborted(): void;
}

/** The part of Blob (and File) the core reads: its size and its slices' bytes. */
export interface Blob {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}
