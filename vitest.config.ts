import { defineConfig } from 'vitest/config';

// Four kinds of test, one command: `npm test`.
// unit: pure logic and components (jsdom); api: the server through app.inject on SQLite and PostgreSQL,
// plus platform drivers against local simulators; media: real ffmpeg renders (and the create-video API
// that runs them); e2e: the built panel in Debian's Chromium.
const RENDERING = ['tests/media/**/*.test.ts', 'tests/api/create-video*.test.ts'];

export default defineConfig({
  test: {
    globals: true,
    projects: [
      {
        test: {
          name: 'unit',
          globals: true,
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/helpers/unit-setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          globals: true,
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/platforms/**/*.test.ts'],
          exclude: [...RENDERING],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Two files at once, whatever the machine's core count (vitest's default is one fewer than the cores):
          // these tests mostly wait on PostgreSQL, SQLite files and the simulators.
          maxWorkers: 2,
        },
      },
      {
        // Files that keep ffmpeg encoding for seconds at a time: one at a time, so they neither starve the
        // other test files of CPU nor each other (2-core machines).
        test: {
          name: 'media',
          globals: true,
          environment: 'node',
          include: RENDERING,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          globals: true,
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          // A busy 2-core CI machine renders a page in more than expect.poll's default second; waiting for a
          // state is not a wall-clock assertion, so give it room.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at once (each its own server and browser): most of a browser test is waiting on a page.
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
