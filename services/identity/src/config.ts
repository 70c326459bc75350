import { z } from 'zod';
import { loadConfig, serviceEnv } from '@inventory/platform';

export const configSchema = z.object({
  ...serviceEnv,
  MONGO_DB: z.string().min(1).default('identity'),
  /** Tenants get <slug>.<BASE_DOMAIN> as their default domain; same value as the gateway's. */
  BASE_DOMAIN: z.string().min(1).default('inventory.localhost'),
  /** How long a web session lasts after login. */
  SESSION_TTL_MINUTES: z.coerce.number().int().positive().default(720),
  /** How long token request-log rows are kept (a TTL index). */
  REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  TOTP_ISSUER: z.string().min(1).default('Inventory'),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);

export function settingsFrom(config: Config) {
  return {
    baseDomain: config.BASE_DOMAIN.toLowerCase(),
    sessionTtlMinutes: config.SESSION_TTL_MINUTES,
    totpIssuer: config.TOTP_ISSUER,
  };
}
