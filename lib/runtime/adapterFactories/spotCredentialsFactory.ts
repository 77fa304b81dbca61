import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { FileCredentialsProvider } from '../../secrets/FileCredentialsProvider';
import { SecretsManagerCredentialsProvider } from '../../secrets/SecretsManagerCredentialsProvider';
import { AWS_REQUEST_HANDLER } from '../AwsClients';
import type { AdapterFactory } from '../buildDependencies';

/** The spots' upstream keys: Secrets Manager, or a local file when LOCAL_SECRETS_FILE is set. */
export const spotCredentialsFactory: AdapterFactory<'credentials'> = ({ config, clients }) => {
  const { credentials } = config;
  if (credentials.file !== undefined) return new FileCredentialsProvider(credentials.file);
  return new SecretsManagerCredentialsProvider({
    client: clients.secretsManager ?? new SecretsManagerClient({ requestHandler: AWS_REQUEST_HANDLER }),
    secretNamePrefix: credentials.secretNamePrefix,
    cacheMaxAgeSeconds: credentials.cacheMaxAgeSeconds,
  });
};
