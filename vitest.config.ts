import { defineConfig } from 'vitest/config';

// Every project fails a test that logs an unexpected console.error; CI refuses a committed `.only`.
const shared = { setupFiles: ['tests/support/console-trap.ts'], allowOnly: !process.env.CI };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['{app,server,common,scripts}/**/*.test.{ts,tsx}', 'docs/examples/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', 'node_modules/**'],
        },
      },
      {
        test: {
          ...shared,
          name: 'db',
          include: ['server/**/*.db.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Processes stopped and killed on purpose (tests/faults): one file at a time, on the build.
        test: {
          ...shared,
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          globalSetup: ['tests/faults/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
