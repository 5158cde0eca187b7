// Page MAIN world: the one place where the tap swallows its own failures.

/** Runs one tap step. Whatever goes wrong inside the tap must never reach the page, so it stops here. */
export function attempt<T>(step: () => T): T | null {
  try {
    return step();
  } catch {
    // Deliberately dropped: the page keeps working exactly as without the extension; only this record suffers.
    return null;
  }
}

export function guarded(step: () => void): void {
  attempt(step);
}
