/** What the upstream auth call needs for one spot. Never log `apiKey`. */
export interface SpotCredentials {
  spotId: string;
  apiKey: string;
}

export interface GetCredentialsOptions {
  /** Skip the cache, e.g. after the upstream rejected the key (rotation). */
  forceRefresh?: boolean;
}

export interface CredentialsProvider {
  getCredentials(spotId: string, options?: GetCredentialsOptions): Promise<SpotCredentials>;
}
