import { HEADER_SIZE, MAX_MESSAGE_SIZE } from './constants.js';

export class FramingError extends Error {}

/**
 * Reassembles length-prefixed wire messages from arbitrary TCP chunks.
 * A declared length outside [header, maxMessageSizeBytes] is unrecoverable (we cannot find the next
 * message boundary), so it throws and the connection must be closed.
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Buffer[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Buffer[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.peek(4);
      const len = head.readInt32LE(0);
      if (len < HEADER_SIZE || len > MAX_MESSAGE_SIZE) {
        throw new FramingError(`invalid message length ${len}`);
      }
      if (this.buffered < len) break;
      out.push(this.take(len));
    }
    return out;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!.subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const msg = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return msg;
  }
}
