import { connectivityState, status as GrpcStatus, type Client } from '@grpc/grpc-js';
import { AppError } from './errors.js';

/** How long one connectivity watch lasts before it is renewed (a finite timer, never Infinity). */
const WATCH_WINDOW_MS = 60_000;

type Channel = Pick<
  ReturnType<Client['getChannel']>,
  'getConnectivityState' | 'watchConnectivityState'
>;

export interface ConnectionGate {
  /** Throws UNAVAILABLE (reason `unreachable`) while the connection is known to be broken. */
  check(): void;
  /** Given each failed call's error: a transport failure marks the connection broken. */
  observe(error: { code?: unknown }): void;
  close(): void;
}

/**
 * Fail fast after a lost connection (issue #18 item 6, ADR 0710). When a call fails UNAVAILABLE
 * while the channel is not READY (the transport dropped: a missed keepalive ping, a reset), new
 * calls fail at once until the channel is READY again. Without this they queue while grpc-js
 * reconnects, and a frozen peer accepts TCP but never completes HTTP/2, so every queued call
 * would wait out its own deadline.
 */
export function createConnectionGate(channel: Channel, target: string): ConnectionGate {
  let broken = false;
  let closed = false;
  const watch = () => {
    const state = channel.getConnectivityState(false);
    if (closed || state === connectivityState.SHUTDOWN) return;
    if (state === connectivityState.READY) broken = false;
    // While broken, keep reconnecting even if no call comes (an open breaker sends none).
    else if (broken && state === connectivityState.IDLE) channel.getConnectivityState(true);
    channel.watchConnectivityState(state, Date.now() + WATCH_WINDOW_MS, () => watch());
  };
  watch();
  return {
    check() {
      if (!broken) return;
      // Asking for the state with tryToConnect keeps a reconnection under way.
      if (channel.getConnectivityState(true) === connectivityState.READY) {
        broken = false;
        return;
      }
      throw new AppError(
        GrpcStatus.UNAVAILABLE,
        'unreachable',
        `${target} is unreachable (connection lost)`,
      );
    },
    observe(error) {
      if (
        error.code === GrpcStatus.UNAVAILABLE &&
        channel.getConnectivityState(false) !== connectivityState.READY
      ) {
        broken = true;
        channel.getConnectivityState(true);
      }
    },
    close() {
      closed = true;
    },
  };
}
