import { defineConfig } from 'vitest/config';

export const vitestConfig = defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The AWS SDK warns once per process that its 2027 releases need Node 22; with a worker per
    // file that is dozens of identical lines. Lambda runs Node 24; see docs/local.md "Node versions".
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 30_000,
    // dt-sql-parser (Trino's grammar, for the lake's SQL) ships ES modules with extensionless
    // imports, which Node's loader refuses: vitest transforms it instead.
    server: { deps: { inline: ['dt-sql-parser'] } },
    restoreMocks: true,
    coverage: {
      provider: 'v8',
      include: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'],
      reporter: ['text-summary', 'text'],
    },
    // Three tiers, each runnable by name (`npm run test:unit` …); `npm test` runs all of them.
    projects: [
      {
        extends: true,
        // Each module alone, no sockets but loopback fakes: one shared module graph keeps it to seconds.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        // One module or flow against real adapters (dynalite, the simulator, S3 and DuckDB stand-ins, CDK).
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'] },
      },
      {
        extends: true,
        // The whole system: npm start as a process, the fault suite, the shipped bundles.
        test: { name: 'system', include: ['test/system/**/*.test.ts'] },
      },
    ],
  },
});

// biome-ignore lint/style/noDefaultExport: vitest loads its config through the default export
export default vitestConfig;
