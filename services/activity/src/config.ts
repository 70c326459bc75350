import { z } from 'zod';
import { loadConfig, retentionDays, serviceEnv } from '@inventory/platform';

export const configSchema = z.object({
  ...serviceEnv,
  MONGO_DB: z.string().min(1).default('activity'),
  /** Days the activity log keeps an entry, by when it was recorded. */
  ACTIVITY_RETENTION_DAYS: retentionDays(365),
  /** Days an in-app alert is kept, read or not, by when it was raised. */
  ALERT_RETENTION_DAYS: retentionDays(365),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
