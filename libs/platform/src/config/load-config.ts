import type { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables once at start-up into a typed object. Every
 * problem is reported at once, each naming its variable, so an operator fixes a
 * deployment in one pass.
 */
export function loadConfig<Schema extends z.ZodTypeAny>(
  schema: Schema,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    const missing = issue.code === 'invalid_type' && issue.received === 'undefined';
    return `${variable}: ${missing ? 'is required but missing' : issue.message}`;
  });
  throw new ConfigError(issues);
}

/** Parses config or prints the problem and exits with status 78 (EX_CONFIG). */
export function loadConfigOrExit<Schema extends z.ZodTypeAny>(
  schema: Schema,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<Schema> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
}
