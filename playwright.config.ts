// Node (tests): Playwright e2e in real browsers that the project's launcher starts (never Playwright's downloads).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  // Only *.spec.ts: e2e/lab also holds vitest unit tests (*.test.ts).
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results/artifacts',
  workers: 2,
  fullyParallel: false,
  timeout: 90_000,
  // A wait for a cause (a row, a finding, a message) is bounded by these and nothing shorter: a busy machine is slow,
  // not broken (issue 33). 30 s per expectation, 90 s per test.
  expect: { timeout: 30_000 },
  reporter: [['list']],
  retries: 0,
});
