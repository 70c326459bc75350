import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON when the body is JSON, else undefined. */
  json: Record<string, unknown> | undefined;
}

/** Splits the first HTTP/1.1 response out of what a socket received. */
export function parseRawResponse(raw: string): RawResponse & { rest: string } {
  const headerEnd = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, headerEnd).split('\r\n');
  const status = Number(head[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyStart = headerEnd + 4;
  const text = Buffer.from(raw.slice(bodyStart), 'utf8').subarray(0, length).toString('utf8');
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json, rest: raw.slice(bodyStart + text.length) };
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and returns everything the server
 * sent back until it closed the connection (or `untilResponses` responses arrived).
 */
export function rawExchange(
  port: number,
  request: string | Buffer,
  options: { untilResponses?: number; onConnected?: () => void } = {},
): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = () => {
      const responses: RawResponse[] = [];
      let rest = received;
      while (rest.includes('\r\n\r\n')) {
        const parsed = parseRawResponse(rest);
        responses.push(parsed);
        rest = parsed.rest;
      }
      resolve(responses);
    };
    socket.on('connect', () => {
      socket.write(request);
      options.onConnected?.();
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      const count = received.split('HTTP/1.1 ').length - 1;
      if (
        options.untilResponses &&
        count >= options.untilResponses &&
        received.includes('\r\n\r\n')
      )
        setImmediate(() => socket.end());
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset after answering a refused request; what it sent still counts.
      if (received) finish();
      else reject(error);
    });
    socket.on('close', finish);
  });
}
