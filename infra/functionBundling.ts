import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

// esbuild emits ESM; CommonJS dependencies bundled into it still call `require`.
const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * Lambda hands every function its role's credentials in the environment, and the SDK's default
 * credential chain reads those first. Its profile, SSO, credential-process and web-identity
 * providers (with the STS and SSO clients they bring, about 85 KB of every bundle) are only
 * loaded, by dynamic import, when the environment has no credentials, which never happens
 * in Lambda; they are left out of the bundles.
 */
export const LAMBDA_UNUSED_CREDENTIAL_PROVIDERS = [
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-web-identity',
];

/**
 * How every function is bundled (esbuild, locally, never Docker). The benchmarks and the
 * shipped-bundle checks build with these very options, so what they measure is what ships.
 */
export const FUNCTION_BUNDLING: Readonly<BundlingOptions> = {
  format: OutputFormat.ESM,
  banner: ESM_REQUIRE_BANNER,
  mainFields: ['module', 'main'],
  minify: true,
  // No keepNames: it wraps every function and class of the bundle in a naming call, which costs
  // module init. Step Functions and callers match errors by name, and every error class sets
  // its `name` itself (test/unit/lib/errors/errorClassification.test.ts), so no name depends on
  // the class name surviving minification.
  // The source map ships beside the bundle; Node reads it only with --enable-source-maps,
  // which the `sourceMapStackTraces` setting turns on (infra/ExportFunction.ts).
  sourceMap: true,
  sourcesContent: false,
  // Bundle the AWS SDK too: a pinned, tree-shaken SDK instead of whatever the runtime ships.
  externalModules: LAMBDA_UNUSED_CREDENTIAL_PROVIDERS,
};
