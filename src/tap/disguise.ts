// Page MAIN world: makes the tap's replacements print as the natives they replace. A Proxy of a native function
// already keeps name, length and "[native code]", but prints without its name ("function () { [native code] }");
// Function.prototype.toString is therefore wrapped (itself disguised) to print the original for each registered
// replacement. Any other function prints exactly as before.

import { apply } from './intrinsics';

/** Registers `replacement` to print, name and count its parameters like `original`. */
export type Disguise = (replacement: object, original: object) => void;

export function installDisguise(): Disguise {
  const originals = new WeakMap<object, object>();
  const nativeToString = Function.prototype.toString;
  const toString = new Proxy(nativeToString, {
    apply(target, thisArg: unknown, args: unknown[]): unknown {
      const original = typeof thisArg === 'function' ? originals.get(thisArg) : undefined;
      return apply(target, original ?? thisArg, args);
    },
  });
  originals.set(toString, nativeToString);
  // The one built-in the tap replaces on purpose: wrapped functions must print as native code.
  // eslint-disable-next-line no-extend-native
  Object.defineProperty(Function.prototype, 'toString', {
    ...Object.getOwnPropertyDescriptor(Function.prototype, 'toString'),
    value: toString,
  });
  return (replacement, original) => {
    originals.set(replacement, original);
    // Minified builds rename functions: copy name and length from the original (a Proxy already forwards them).
    for (const key of ['name', 'length'] as const) {
      const want = (original as Record<string, unknown>)[key];
      if ((replacement as Record<string, unknown>)[key] !== want) {
        Object.defineProperty(replacement, key, {
          value: want,
          configurable: true,
          enumerable: false,
          writable: false,
        });
      }
    }
  };
}
