import { afterEach, describe, expect, it, vi } from 'vitest';
import { OutageLog } from './outage-log.js';

function recorder() {
  const lines: Array<{ level: 'warn' | 'info'; fields: object; message: string }> = [];
  return {
    lines,
    logger: {
      warn: (fields: object, message: string) => lines.push({ level: 'warn', fields, message }),
      info: (fields: object, message: string) => lines.push({ level: 'info', fields, message }),
    },
  };
}

describe('OutageLog', () => {
  afterEach(() => vi.useRealTimers());

  it('warns at the first failure and then once per interval, then says once that it is back', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { lines, logger } = recorder();
    const log = new OutageLog(logger as never, 10_000);
    const error = new Error('ECONNREFUSED');

    log.failed(error, 'down');
    vi.advanceTimersByTime(2_000);
    log.failed(error, 'down');
    vi.advanceTimersByTime(8_000);
    log.failed(error, 'down');
    expect(lines).toEqual([
      { level: 'warn', fields: { err: error, failing_for_ms: 0 }, message: 'down' },
      { level: 'warn', fields: { err: error, failing_for_ms: 10_000 }, message: 'down' },
    ]);

    vi.advanceTimersByTime(500);
    log.recovered('back');
    log.recovered('back');
    expect(lines.slice(2)).toEqual([
      { level: 'info', fields: { outage_ms: 10_500 }, message: 'back' },
    ]);

    // A new outage starts its own count and warns at once.
    log.failed(error, 'down');
    expect(lines.at(-1)).toEqual({
      level: 'warn',
      fields: { err: error, failing_for_ms: 0 },
      message: 'down',
    });
  });

  it('says nothing on recovery when nothing failed', () => {
    const { lines, logger } = recorder();
    new OutageLog(logger as never).recovered('back');
    expect(lines).toEqual([]);
  });
});
