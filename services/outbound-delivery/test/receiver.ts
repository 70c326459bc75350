import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request (default 200); may hold the response open. */
export type Responder = (request: ReceivedRequest, response: ServerResponse) => void;

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respond(responder: Responder): void;
  /** Forgets the requests received so far and answers as at the start again. */
  reset(): void;
  stop(): Promise<void>;
}

/** Answers 200 `ok` to everything. */
export const answerOk: Responder = (_request, response) => response.writeHead(200).end('ok');

/** A plain local HTTP receiver on 127.0.0.1, recording every request it gets. */
export async function startReceiver(initial: Responder = answerOk): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let responder = initial;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      responder(received, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (next) => (responder = next),
    reset: () => {
      requests.length = 0;
      responder = initial;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
