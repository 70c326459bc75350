import { z } from 'zod';
import { loadConfig, serviceEnv } from '@inventory/platform';

/** A throwaway key for development and tests only; production must set its own. */
export const DEV_IDENTITY_SECRET_ENCRYPTION_KEY = Buffer.alloc(32, 'identity-dev-key').toString(
  'base64',
);

const encryptionKey = z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
  message: 'must be 32 bytes, base64-encoded',
});

/** The TOTP-secret key and the environment that decides whether the development key is allowed. */
const secretKeyFields = {
  NODE_ENV: z.string().default('development'),
  /** AES-256-GCM key for TOTP secrets at rest (base64 of 32 bytes). */
  IDENTITY_SECRET_ENCRYPTION_KEY: encryptionKey.optional(),
};

type SecretKeyFields = { NODE_ENV: string; IDENTITY_SECRET_ENCRYPTION_KEY?: string | undefined };

function requireKeyInProduction(config: SecretKeyFields, context: z.RefinementCtx): void {
  if (config.NODE_ENV === 'production' && !config.IDENTITY_SECRET_ENCRYPTION_KEY) {
    context.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['IDENTITY_SECRET_ENCRYPTION_KEY'],
      message: 'is required in production',
    });
  }
}

const withDevelopmentKey = <T extends SecretKeyFields>(config: T) => ({
  ...config,
  IDENTITY_SECRET_ENCRYPTION_KEY:
    config.IDENTITY_SECRET_ENCRYPTION_KEY ?? DEV_IDENTITY_SECRET_ENCRYPTION_KEY,
});

export const configSchema = z
  .object({
    ...serviceEnv,
    ...secretKeyFields,
    MONGO_DB: z.string().min(1).default('identity'),
    /** Tenants get <slug>.<BASE_DOMAIN> as their default domain; same value as the gateway's. */
    BASE_DOMAIN: z.string().min(1).default('inventory.localhost'),
    /** How long a web session lasts after login. */
    SESSION_TTL_MINUTES: z.coerce.number().int().positive().default(720),
    /** How long token request-log rows are kept (a TTL index). */
    REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
    TOTP_ISSUER: z.string().min(1).default('Inventory'),
    /** How often a replica looks for tokens to alert about their expiry (ADR 0118); 0: never. */
    TOKEN_EXPIRY_ALERT_INTERVAL_MS: z.coerce.number().int().nonnegative().default(60_000),
  })
  .superRefine(requireKeyInProduction)
  .transform(withDevelopmentKey);

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);

const secretKeySchema = z
  .object(secretKeyFields)
  .superRefine(requireKeyInProduction)
  .transform(withDevelopmentKey);

/**
 * The TOTP-secret key alone, by the service's own rules (required in
 * production): for the admin CLI, which does not need the rest of the config.
 */
export const readSecretEncryptionKey = (env: NodeJS.ProcessEnv = process.env): string =>
  loadConfig(secretKeySchema, env).IDENTITY_SECRET_ENCRYPTION_KEY;

/** The settings identity's use cases read. */
export interface IdentitySettings {
  baseDomain: string;
  sessionTtlMinutes: number;
  /** Shown as the issuer in authenticator apps. */
  totpIssuer: string;
}

export function settingsFrom(config: Config): IdentitySettings {
  return {
    baseDomain: config.BASE_DOMAIN.toLowerCase(),
    sessionTtlMinutes: config.SESSION_TTL_MINUTES,
    totpIssuer: config.TOTP_ISSUER,
  };
}
