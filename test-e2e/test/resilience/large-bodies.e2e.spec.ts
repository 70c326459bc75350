import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const TEN_MB = 10 * 1024 * 1024;

// A client that writes its whole body before reading (most do) must still read the 413: the
// gateway reads and drops the rest of a refused body before it closes (lingering close).
describe('a body over the limit, sent whole before the answer is read', () => {
  let system: RunningSystem;
  let tenant: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    tenant = await createTenantWithToken(system);
  });
  afterAll(() => system?.stop());

  /** Writes the request, then reads: what arrived before the connection ended, or the error. */
  const writeThenRead = (head: string, body: Buffer[]) =>
    new Promise<{ received: string; error?: string }>((resolve) => {
      const url = new URL(system.gatewayUrl);
      const socket = connect(Number(url.port), '127.0.0.1');
      socket.pause();
      let received = '';
      socket.on('connect', () => {
        socket.write(head);
        body.forEach((part, index) =>
          socket.write(part, () => {
            if (index < body.length - 1) return;
            socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
            socket.resume();
          }),
        );
      });
      socket.on('error', (error: NodeJS.ErrnoException) =>
        resolve({ received, error: error.code }),
      );
      socket.on('close', () => resolve({ received }));
    });

  it('answers 413 in the envelope, readable, for a Content-Length body and a chunked one', async () => {
    const path = '/api/integrations/parcel-tracking/instances';
    const headers = `Host: ${tenant.host}\r\nAuthorization: Bearer ${tenant.token}\r\nContent-Type: application/json\r\n`;
    const chunk = 'a'.repeat(0x100000);
    for (let round = 0; round < 4; round++) {
      const sized = await writeThenRead(
        `POST ${path} HTTP/1.1\r\n${headers}Content-Length: ${TEN_MB}\r\n\r\n`,
        [Buffer.alloc(TEN_MB, 'a')],
      );
      const chunked = await writeThenRead(
        `POST ${path} HTTP/1.1\r\n${headers}Transfer-Encoding: chunked\r\n\r\n`,
        [
          ...Array.from({ length: 10 }, () => Buffer.from(`100000\r\n${chunk}\r\n`)),
          Buffer.from('0\r\n\r\n'),
        ],
      );
      for (const { received, error } of [sized, chunked]) {
        expect(error, received.slice(0, 200)).toBeUndefined();
        expect(received).toMatch(/^HTTP\/1\.1 413 /);
        expect(received).toContain(
          '{"message":"The request body is too large.","code":"payload_too_large"}',
        );
      }
    }
  });
});
