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
  },
});
