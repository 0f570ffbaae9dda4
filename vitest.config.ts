import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

// Two tiers by file name (STYLE.md): *.test.ts run in process; *.e2e.ts start real processes.
// Each tier runs its files one after another in one worker that keeps its modules, so the
// test database (an embedded PGlite or a database on the PostgreSQL of DATABASE_URL) is
// opened once per tier rather than once per file.
export default defineConfig({
  resolve: {
    // Apollo's packages are CommonJS and load graphql's CJS build; point our ESM imports at the
    // same build so the process holds one graphql (two would refuse each other's schemas).
    alias: { graphql: require.resolve('graphql') },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          pool: 'forks',
          maxWorkers: 1,
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.e2e.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          pool: 'forks',
          maxWorkers: 1,
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
