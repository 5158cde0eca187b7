// Runs anywhere (pure core): the one error type for bad input files; touches no I/O.

/**
 * A problem with an input file: where it is (a JSON path such as `connections[3].chunks[2].b64`,
 * `log.entries[0].request`, or `line 7` for line-based input; "" for the whole input) and what is wrong.
 * `message` reads on its own: it starts with the path when there is one.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly path: string;
  /** The problem without the path. */
  readonly detail: string;

  constructor(path: string, detail: string) {
    super(path ? `${path}: ${detail}` : detail);
    this.path = path;
    this.detail = detail;
  }
}

/** Appends a property to a JSON path: `a` + `b` -> `a.b`, "" + `b` -> `b`. */
export function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Appends an array index to a JSON path. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}
