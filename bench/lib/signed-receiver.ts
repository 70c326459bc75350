import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one path of the receiver has seen. */
export interface Received {
  /** Requests answered. */
  requests: number;
  /** Distinct `X-SVC-Delivery-Id`s whose `X-SVC-Signature` verified. */
  verified: Set<string>;
  /** Requests whose signature did not verify, and verified ids seen again. */
  badSignatures: number;
  repeated: number;
}

/**
 * The subscriber of the outbound rows: answers 204 to every POST and verifies each delivery's
 * `X-SVC-Signature` (`sha256=<hex HMAC-SHA256 of the raw body>`, keyed with `secret()`), counting
 * by path (the system's `/hook`, the baseline's `/baseline`). It runs in the bench process, whose
 * CPU neither side's sum counts.
 */
export async function startSignedReceiver(secret: () => string) {
  const paths = new Map<string, Received>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const seen =
        paths.get(path) ??
        paths
          .set(path, { requests: 0, verified: new Set(), badSignatures: 0, repeated: 0 })
          .get(path)!;
      seen.requests++;
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret()).update(Buffer.concat(chunks)).digest('hex')}`,
      );
      const given = Buffer.from(String(request.headers['x-svc-signature'] ?? ''));
      const id = String(request.headers['x-svc-delivery-id'] ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        seen.badSignatures++;
      else if (seen.verified.has(id)) seen.repeated++;
      else seen.verified.add(id);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const received = (path: string) =>
    paths.get(path) ?? { requests: 0, verified: new Set<string>(), badSignatures: 0, repeated: 0 };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
