import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level } from 'pino';

/**
 * `request.log` made on first use at an enabled level. Fastify's default makes
 * a pino child for every request, and with redaction configured that child
 * serialises its bindings through the redactor up front: CPU and garbage on every
 * request of a gateway that logs at `warn` and mostly never writes a line for
 * one. Here the child (with the same request-id binding) is only made when
 * something is actually written.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: LevelAwareLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  set level(level: string) {
    this.materialised().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.materialised().child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    (this.materialised()[level] as (...values: unknown[]) => void)(...args);
  }

  private materialised(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }
}

type LevelAwareLogger = FastifyBaseLogger & { isLevelEnabled(level: Level): boolean };

/**
 * Fastify's `childLoggerFactory`: the lazy logger, unless a route set its own `logLevel`; that
 * child's level differs from the parent's, so it is made at once.
 */
export const lazyChildLoggerFactory = (
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger =>
  options.level
    ? parent.child(bindings, options)
    : new LazyRequestLogger(parent as LevelAwareLogger, bindings, options);
