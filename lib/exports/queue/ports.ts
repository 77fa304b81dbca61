import type { IdempotencyKeys } from '../record/IdempotencyRecord';
import type { CredentialsProvider } from '../upstream/CredentialsProvider';
import type { WorkflowDependencies } from '../workflow/ports';
import type { SpotLocks } from './SpotLock';

/** What starting an export and the spot's queue touch. */
export interface QueueDependencies extends WorkflowDependencies {
  spotLocks: SpotLocks;
  idempotencyKeys: IdempotencyKeys;
  /** The spots' upstream credentials; the start path checks a spot has them. */
  credentials: CredentialsProvider;
}
