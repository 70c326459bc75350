import { ConfigError, exitOnSignals } from '@inventory/platform';
import { bootstrap } from './bootstrap.js';

try {
  const service = await bootstrap();
  exitOnSignals(service, service.logger);
} catch (error) {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`,
  );
  process.exit(error instanceof ConfigError ? 78 : 1);
}
