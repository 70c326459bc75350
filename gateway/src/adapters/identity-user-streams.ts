import { status as GrpcStatus, type ClientDuplexStream } from '@grpc/grpc-js';
import type {
  StreamUsersRequest,
  StreamUsersResponse,
  User,
} from '@inventory/contracts/identity/v1/identity.js';
import {
  AppError,
  contextToMetadata,
  createCallBreaker,
  currentContext,
  endSpan,
  fireOrFailFast,
  isTracing,
  newRequestId,
  SpanKind,
  startSpan,
  traceHeaders,
  type BreakerOptions,
  unlessStalled,
  type Span,
} from '@inventory/platform';
import type CircuitBreaker from 'opossum';
import type { IdentityAdapter } from './identity.js';

type UsersCall = ClientDuplexStream<StreamUsersRequest, StreamUsersResponse>;

/** The span name a unary call to the method would get. */
const STREAM_USERS_SPAN = 'inventory.identity.v1.IdentityService/StreamUsers';

interface Waiting {
  resolve(users: User[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface IdentityUserStreamsOptions {
  /** How long one look-up may wait for its answer. */
  deadlineMs: number;
  /** A tenant's stream unused for this long is closed. */
  idleMs?: number;
  /** When look-ups stop failing after their deadline and fail at once instead. */
  breaker?: BreakerOptions;
}

const unavailable = () =>
  new AppError(
    GrpcStatus.UNAVAILABLE,
    'identity_unavailable',
    'The identity service is unavailable.',
  );

/** One tenant's `StreamUsers` call and the look-ups waiting on it. */
class TenantUserStream {
  private readonly waiting = new Map<number, Waiting>();
  lastUsed = Date.now();
  closed = false;

  constructor(
    private readonly call: UsersCall,
    private readonly deadlineMs: number,
    onClosed: (error?: { code?: unknown }) => void,
  ) {
    call.on('data', (answer: StreamUsersResponse) => {
      const waiting = this.waiting.get(answer.correlation_id);
      if (!waiting) return;
      this.waiting.delete(answer.correlation_id);
      clearTimeout(waiting.timer);
      if (answer.error_code === GrpcStatus.OK) waiting.resolve(answer.users);
      else
        waiting.reject(
          new AppError(
            answer.error_code,
            answer.error_reason || 'identity_error',
            answer.error_message,
          ),
        );
    });
    // The server ended (it drains) or the call broke: whatever is still waiting fails now as
    // unavailable, and the next look-up opens a new stream (to another replica, if any).
    const fail = (error?: { code?: unknown }) => {
      if (this.closed) return;
      this.closed = true;
      onClosed(error);
      for (const waiting of this.waiting.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(unavailable());
      }
      this.waiting.clear();
    };
    call.on('error', fail);
    call.on('end', () => {
      fail();
      call.end();
    });
    call.on('close', () => fail());
  }

  lookUp(correlationId: number, userIds: number[], span?: Span): Promise<User[]> {
    this.lastUsed = Date.now();
    const answered = new Promise<User[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(correlationId);
        reject(
          new AppError(
            GrpcStatus.DEADLINE_EXCEEDED,
            'deadline_exceeded',
            'The identity service did not answer in time.',
          ),
        );
      }, this.deadlineMs);
      this.waiting.set(correlationId, { resolve, reject, timer });
      this.call.write({
        correlation_id: correlationId,
        user_ids: userIds,
        ...(span && { traceparent: traceHeaders(span).traceparent }),
      });
    });
    if (!span) return answered;
    return answered.then(
      (users) => {
        endSpan(span, undefined, { 'rpc.grpc.status_code': GrpcStatus.OK });
        return users;
      },
      (error: unknown) => {
        const code = error instanceof AppError ? error.code : GrpcStatus.UNKNOWN;
        endSpan(span, GrpcStatus[code] ?? code, { 'rpc.grpc.status_code': code });
        throw error;
      },
    );
  }

  close(): void {
    if (!this.closed) this.call.end();
  }
}

/**
 * Users by id from identity over one long-lived `StreamUsers` call per tenant
 * (the tenant travels as the stream's metadata, as on every call). A look-up is
 * one message each way instead of a unary call with its own HTTP/2 stream,
 * headers and trailers, which on this hardware costs several times more CPU
 * (docs/decisions/0107).
 */
export class IdentityUserStreams {
  private readonly streams = new Map<string, TenantUserStream>();
  private nextCorrelationId = 1;
  private readonly sweeper: NodeJS.Timeout;
  /**
   * A hung identity would make every look-up wait out its deadline, holding a request and its
   * socket each; once enough of them time out (or find identity unavailable), look-ups fail at
   * once with 503 until a trial look-up gets through.
   */
  readonly breaker: CircuitBreaker<[string, number[]], User[]>;

  constructor(
    private readonly identity: IdentityAdapter,
    private readonly options: IdentityUserStreamsOptions,
  ) {
    const idleMs = options.idleMs ?? 60_000;
    this.sweeper = setInterval(
      () => {
        const idleSince = Date.now() - idleMs;
        for (const stream of this.streams.values()) if (stream.lastUsed < idleSince) stream.close();
      },
      Math.max(1_000, idleMs / 2),
    );
    this.sweeper.unref();
    this.breaker = createCallBreaker(
      (tenantId: string, userIds: number[]) => this.lookUpOnStream(tenantId, userIds),
      options.breaker,
    );
  }

  lookUp(tenantId: string, userIds: number[]): Promise<User[]> {
    return fireOrFailFast(this.breaker, 'identity', tenantId, userIds);
  }

  private lookUpOnStream(tenantId: string, userIds: number[]): Promise<User[]> {
    // A stream opened while the connection is lost would wait out the look-up's deadline.
    this.identity.handle.gate?.check();
    if (this.nextCorrelationId >= Number.MAX_SAFE_INTEGER) this.nextCorrelationId = 1;
    // A look-up is a message, not a call, so the unary client's span is made here (ADR 0711): a
    // child of the request that sent it (the first of its loop turn, when several share it).
    const span = isTracing()
      ? startSpan(STREAM_USERS_SPAN, {
          kind: SpanKind.CLIENT,
          parent: currentContext()?.span,
          attributes: {
            'rpc.system': 'grpc',
            'rpc.service': 'inventory.identity.v1.IdentityService',
            'rpc.method': 'StreamUsers',
            'app.user_ids': userIds.length,
          },
        })
      : undefined;
    const correlationId = this.nextCorrelationId++;
    // A frozen identity answers no message: its look-ups fail once its pings go unanswered.
    return unlessStalled(this.identity.handle.peer, unavailable, () =>
      this.streamFor(tenantId).lookUp(correlationId, userIds, span),
    );
  }

  close(): void {
    this.breaker.shutdown();
    clearInterval(this.sweeper);
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }

  private streamFor(tenantId: string): TenantUserStream {
    const open = this.streams.get(tenantId);
    if (open && !open.closed) return open;
    const call = this.identity.handle.client.streamUsers(
      contextToMetadata({ requestId: newRequestId(), tenantId }),
    );
    const stream: TenantUserStream = new TenantUserStream(
      call,
      this.options.deadlineMs,
      (error) => {
        if (this.streams.get(tenantId) === stream) this.streams.delete(tenantId);
        // A stream broken by a lost connection (a missed keepalive ping) closes the gate too.
        if (error) this.identity.handle.gate?.observe(error);
      },
    );
    this.streams.set(tenantId, stream);
    return stream;
  }
}
