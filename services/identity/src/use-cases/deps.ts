import type { EventPublisher, Logger, Outbox, SecretBox } from '@inventory/platform';
import type { IdentityStore } from '../store/index.js';

export interface IdentitySettings {
  baseDomain: string;
  sessionTtlMinutes: number;
  /** Shown as the issuer in authenticator apps. */
  totpIssuer: string;
}

/** What every use case may use; built once in bootstrap (or by the admin CLI). */
export interface UseCaseDeps {
  store: IdentityStore;
  outbox: Outbox;
  /** Absent in the admin CLI, which has no NATS connection; the outbox relay of a running service publishes. */
  publisher?: EventPublisher;
  settings: IdentitySettings;
  /** Encrypts TOTP secrets at rest (IDENTITY_SECRET_ENCRYPTION_KEY, ADR 0106). */
  secrets: SecretBox;
  logger: Logger;
}
