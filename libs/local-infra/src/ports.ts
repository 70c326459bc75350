import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where explicitly chosen ports start: clear of the well-known and registered low ports. */
const LOWEST = 10_000;

/**
 * A loopback port free now, for a server that binds it later (a process still to start, or an
 * address another part must be given before its server exists). It is chosen below the kernel's
 * ephemeral range: between the choice and the bind, the outgoing connections the rest of a test
 * run makes take their local ports from that range and could take this one (a saturated suite
 * did: EADDRINUSE for a gRPC server). Only another explicit choice can meet it here, and that
 * one is checked by binding. Falls back to the kernel's choice where the range leaves no room.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  if (below - LOWEST >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
      if ((await bindOnce(port)) === port) return port;
    }
  }
  return bindOnce(0);
}

/** The first port of the kernel's ephemeral range (Linux; the IANA range elsewhere). */
export function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > 0 ? port : 49_152;
  } catch {
    return 49_152;
  }
}

/** Binds `port` on loopback and closes it again: the port bound, or 0 when it was taken. */
function bindOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(0) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}
