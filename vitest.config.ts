import { defineConfig } from 'vitest/config';

// Unit tests only; the browser end-to-end tests run under Playwright (e2e/).
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'src/**/*.test.tsx',
      'bench/**/*.test.ts',
      'e2e/lab/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    // A guard against hangs, not a speed check: the gates test runs knip and oxlint on planted projects, and the
    // core's byte-by-byte replays take seconds on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
