import { z } from 'zod';
import { loadConfig, serviceEnv } from '@inventory/platform';

export const configSchema = z.object({
  ...serviceEnv,
  MONGO_DB: z.string().min(1).default('catalog'),
});

export type Config = z.infer<typeof configSchema>;

export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
