import { describe, expect, it } from 'vitest';
import { formatLine } from './log-format.js';

describe('formatLine', () => {
  it('unpacks a pino JSON line into time, level, message and extra fields', () => {
    const line = JSON.stringify({
      level: 30,
      time: '2026-11-21T10:11:12.000Z',
      service: 'identity',
      msg: 'gRPC server listening',
      port: 17501,
    });
    expect(formatLine('identity', 36, line, false)).toBe(
      '[identity] 10:11:12 INFO  gRPC server listening port=17501',
    );
  });

  it('passes other output through with the prefix, coloured only when asked', () => {
    expect(formatLine('nats', 33, 'Server is ready', false)).toBe('[nats] Server is ready');
    expect(formatLine('nats', 33, 'Server is ready', true)).toBe(
      '\x1b[33m[nats]\x1b[0m Server is ready',
    );
    expect(formatLine('x', 33, '{not json', false)).toBe('[x] {not json');
  });
});
