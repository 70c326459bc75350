import type { GrpcClientOptions } from '@inventory/platform';

/**
 * How the gateway stops waiting on a service that does not answer, the same for every adapter. A
 * lost connection fails calls at once (the connection gate, ADR 0710); a frozen process (its
 * sockets open, nothing answering) is noticed by pings of its grpc.health.v1 every 100 ms while
 * the service is in use (once a second while idle, ADR 0747), and after 600 ms without an answer its calls in flight and new ones are answered 503 (ADR 0744),
 * within the 1 s a request may wait on a fault. HTTP/2 keepalive stays the backstop, slow
 * enough that a draining service is never cut mid-call (grpc-node#3068, ADR 0743).
 */
export const FAIL_FAST_ON_A_STOPPED_SERVICE = {
  keepalive: { timeMs: 1_000, timeoutMs: 2_000 },
  watchPeer: { pingEveryMs: 100, stallMs: 600 },
} satisfies Pick<GrpcClientOptions, 'keepalive' | 'watchPeer'>;
