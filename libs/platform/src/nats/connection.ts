import { connect, type NatsConnection } from 'nats';
import type { Logger } from 'pino';

export async function connectNats(
  url: string,
  name: string,
  logger?: Logger,
): Promise<NatsConnection> {
  const connection = await connect({
    servers: url,
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  logger?.info({ server: connection.getServer() }, 'connected to NATS');
  void (async () => {
    for await (const status of connection.status()) {
      logger?.debug({ type: status.type, data: status.data }, 'nats status');
    }
  })();
  return connection;
}
