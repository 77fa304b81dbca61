import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

// esbuild emits ESM; CommonJS dependencies bundled into it still call `require`.
const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * How every function is bundled (esbuild, locally, never Docker). The benchmarks and the
 * shipped-bundle checks build with these very options, so what they measure is what ships.
 */
export const FUNCTION_BUNDLING: Readonly<BundlingOptions> = {
  format: OutputFormat.ESM,
  banner: ESM_REQUIRE_BANNER,
  mainFields: ['module', 'main'],
  minify: true,
  // Step Functions and callers match errors by name; keep class names through minification.
  keepNames: true,
  sourceMap: true,
  sourcesContent: false,
  // Bundle the AWS SDK too: a pinned, tree-shaken SDK instead of whatever the runtime ships.
  externalModules: [],
};
