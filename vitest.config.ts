import { defineConfig } from 'vitest/config';

export const vitestConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The AWS SDK warns once per process that its 2027 releases need Node 22; with a worker per
    // file that is dozens of identical lines. Lambda runs Node 24; see docs/local.md "Node versions".
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 30_000,
    restoreMocks: true,
    coverage: {
      provider: 'v8',
      include: ['lib/**/*.ts', 'functions/**/*.ts', 'infra/**/*.ts'],
      reporter: ['text-summary', 'text'],
    },
  },
});

// biome-ignore lint/style/noDefaultExport: vitest loads its config through the default export
export default vitestConfig;
