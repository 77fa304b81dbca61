import { defineConfig } from 'vitest/config';

export const vitestConfig = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
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
