import type { Socket } from 'node:net';

/** How long a refused request's unread body is still read and dropped before the close. */
export const LINGER_MS = 5_000;

/**
 * Closes a connection whose request body was refused unread (413, 415) the way nginx's
 * lingering close does: the answer is sent and the write side ended, then what the client is
 * still sending is read and dropped until it closes its side or `LINGER_MS` pass. Closing at
 * once with unread bytes makes the kernel reset the connection, and a client that writes its
 * whole body before reading (most do) gets EPIPE or ECONNRESET instead of the 413.
 */
export function lingerOnClose(socket: Socket | null | undefined, lingerMs = LINGER_MS): void {
  if (!socket || socket.destroyed) return;
  // Node's HTTP server ends a `Connection: close` response's socket with destroySoon().
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
    if (!this.writableEnded) this.end();
    this.resume();
  };
}
