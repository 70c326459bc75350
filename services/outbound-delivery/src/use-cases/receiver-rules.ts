import type { ReceiverPolicy, Resolve } from '../domain/receiver-url.js';

/** Which receivers this deployment accepts, and how names are resolved to check them. */
export interface ReceiverRules {
  policy: ReceiverPolicy;
  resolve: Resolve;
}
