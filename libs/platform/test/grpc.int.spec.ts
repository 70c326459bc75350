import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { status as GrpcStatus } from '@grpc/grpc-js';
import {
  HealthClient,
  HealthCheckResponse_ServingStatus,
} from '@inventory/contracts/grpc/health/v1/health.js';
import { EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createLogger,
  describeCallError,
  runWithContext,
  startGrpcServer,
  type GrpcServerHandle,
} from '../src/index.js';
import { echoImplementation, echoRegistration } from './fixtures/echo-service.js';

const logger = createLogger({ service: 'test', level: 'silent' });

describe('gRPC server and client', () => {
  let server: GrpcServerHandle;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
  });
  afterAll(() => server.stop(1_000));

  it('answers grpc.health.v1 Check with SERVING for the server and each service', async () => {
    const health = createGrpcClient(HealthClient, server.address);
    expect((await health.call.check({ service: '' })).status).toBe(
      HealthCheckResponse_ServingStatus.SERVING,
    );
    expect((await health.call.check({ service: 'inventory.testing.v1.EchoService' })).status).toBe(
      HealthCheckResponse_ServingStatus.SERVING,
    );
    health.close();
  });

  it('propagates the request context as metadata', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const response = await runWithContext({ requestId: 'req-123', tenantId: 'tenant-a' }, () =>
      echo.call.echo({ text: 'hi', delay_ms: 0, fail_with_code: 0 }),
    );
    expect(response).toEqual({ text: 'hi', request_id: 'req-123', tenant_id: 'tenant-a' });
    echo.close();
  });

  it('fails a call past its deadline with DEADLINE_EXCEEDED', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 50 });
    const error = await echo.call
      .echo({ text: 'slow', delay_ms: 500, fail_with_code: 0 })
      .catch((e: unknown) => e);
    expect(describeCallError(error).code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    echo.close();
  });

  it('carries the reason and field violations of a typed error', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const error = await echo.call
      .echo({ text: 'x', delay_ms: 0, fail_with_code: GrpcStatus.INVALID_ARGUMENT })
      .catch((e: unknown) => e);
    const decoded = describeCallError(error);
    expect(decoded.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(decoded.reason).toBe('test_failure');
    expect(decoded.fieldViolations).toEqual([
      { field: 'text', description: 'The text field is invalid.' },
    ]);
    echo.close();
  });

  it('turns an unexpected error into INTERNAL without leaking its message', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const error = await echo.call
      .echo({ text: 'x', delay_ms: 0, fail_with_code: -1 })
      .catch((e: unknown) => e);
    const decoded = describeCallError(error);
    expect(decoded.code).toBe(GrpcStatus.INTERNAL);
    expect(decoded.message).toBe('Internal error');
    expect(decoded.message).not.toContain('hunter2');
    echo.close();
  });
});

describe('the call signal', () => {
  /** Each call's signal, by the text it was sent. */
  const signals = new Map<string, AbortSignal>();
  let server: GrpcServerHandle;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [
        {
          ...echoRegistration,
          implementation: {
            echo: (request, context) => {
              signals.set(request.text, context.signal);
              return echoImplementation.echo(request, context);
            },
          } satisfies typeof echoImplementation,
        },
      ],
      logger,
    });
  });
  afterAll(() => server.stop(1_000));

  it('is aborted when the caller gives up on a call still being handled', async () => {
    const impatient = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 50 });
    const error = await impatient.call
      .echo({ text: 'abandoned', delay_ms: 500, fail_with_code: 0 })
      .catch((e: unknown) => e);
    impatient.close();
    expect(describeCallError(error).code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await waitFor(() => signals.get('abandoned')?.aborted, 'the abandoned call aborted');
  });

  it('is never aborted once the call is answered, though grpc-js then reports it cancelled', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const aborts: string[] = [];
    await echo.call.echo({ text: 'answered', delay_ms: 0, fail_with_code: 0 });
    signals.get('answered')!.addEventListener('abort', () => aborts.push('answered'));
    // grpc-js tells its listeners of the end on the tick after the answer: a second round trip
    // on the same server is well past it.
    await echo.call.echo({ text: 'next', delay_ms: 0, fail_with_code: 0 });
    echo.close();
    expect({ aborted: signals.get('answered')!.aborted, aborts }).toEqual({
      aborted: false,
      aborts: [],
    });
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight call finish, then refuses new ones and reports NOT_SERVING', async () => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const inFlight = echo.call.echo({ text: 'finishing', delay_ms: 2_000, fail_with_code: 0 });
    await waitFor(() => server.inFlight() === 1, 'the call in flight');
    const stopped = server.stop(5_000);
    await expect(inFlight).resolves.toMatchObject({ text: 'finishing' });
    await stopped;
    const after = await echo.call
      .echo({ text: 'late', delay_ms: 0, fail_with_code: 0 }, { deadlineMs: 500 })
      .catch((e: unknown) => e);
    expect(describeCallError(after).code).not.toBe(GrpcStatus.OK);
    echo.close();
  });

  it('SIGTERM lets an in-flight request finish before the process exits cleanly', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/echo-process.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', fixture],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /LISTENING (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.on('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const echo = createGrpcClient(EchoServiceClient, `127.0.0.1:${port}`);
    const inFlight = echo.call.echo({ text: 'drained', delay_ms: 2_000, fail_with_code: 0 });
    await waitFor(() => output.includes('RECEIVED drained'), 'the call in flight');
    child.kill('SIGTERM');
    await expect(inFlight).resolves.toMatchObject({ text: 'drained' });
    expect(await exited).toBe(0);
    echo.close();
  });
});
