// Page MAIN world: built-ins the tap uses after page scripts have run, captured while the tap loads at
// document_start, and objects built without a prototype, so that a page that later replaces Reflect.apply or
// pollutes Object.prototype (`status`, `get`, `start`, ...) changes nothing the tap does on its behalf.

export const apply = Reflect.apply;
export const construct = Reflect.construct;
export const reflectGet = Reflect.get;
export const defineProperty = Object.defineProperty;
export const defineProperties = Object.defineProperties;
export const isArray = Array.isArray;
export const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const setPrototypeOf = Object.setPrototypeOf;
export const getPrototypeOf = Object.getPrototypeOf;
const NativeUint8Array = Uint8Array;

/** `fields` without a prototype: nothing inherited from a polluted Object.prototype is read from it. */
export function bare<T extends object>(fields: T): T {
  return setPrototypeOf(fields, null) as T;
}

/** A method-like, non-enumerable property descriptor. */
export function hidden(value: unknown): PropertyDescriptor {
  return bare({ value, configurable: true, writable: true, enumerable: false });
}

/** A view that a replaced Uint8Array.prototype.subarray cannot intercept. */
export function viewOf(buffer: ArrayBuffer, offset: number, length: number): Uint8Array<ArrayBuffer> {
  return new NativeUint8Array(buffer, offset, length);
}

const indexOf = String.prototype.indexOf;
const slice = String.prototype.slice;
const trimStart = String.prototype.trimStart;

/** `text.indexOf(part, from)` that a replaced String.prototype.indexOf cannot change. */
export function findIn(text: string, part: string, from = 0): number {
  return apply(indexOf, text, [part, from]);
}

/** `text.slice(from, to)` that a replaced String.prototype.slice cannot change. */
export function cutOf(text: string, from: number, to?: number): string {
  return apply(slice, text, [from, to]);
}

/** `text.trimStart()` that a replaced String.prototype.trimStart cannot change. */
export function trimmedStart(text: string): string {
  return apply(trimStart, text, []);
}
