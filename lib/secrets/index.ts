export type { CredentialsProvider, GetCredentialsOptions, SpotCredentials } from './CredentialsProvider';
export * from './errors';
export { FileCredentialsProvider } from './FileCredentialsProvider';
export {
  DEFAULT_SECRETS_CACHE_MAX_AGE_SECONDS,
  SecretsManagerCredentialsProvider,
  type SecretsManagerCredentialsProviderOptions,
} from './SecretsManagerCredentialsProvider';
export { SPOT_ID_PATTERN, spotIdSchema } from './spotCredentialsSchema';
