import { describe, expect, it } from 'vitest';
import { errorLines } from '../../src/index.js';

// Lines as the launcher prints a part's pino JSON with NO_COLOR, what `launchSystem` sets
// (tools/dev/src/log-format.ts: `[part] HH:MM:SS LEVEL message key=value`).
const output = [
  '[gateway] 14:03:18 WARN  slow downstream call service=activity',
  '[gateway] 14:03:19 ERROR unhandled error err={"type":"Error","message":"boom"}',
  '[dev] activity restarted',
  '[activity] 14:03:20 INFO  listening port=50051',
  '[mongo] 14:03:21 FATAL out of memory',
  '[identity] ERROR written by hand, not by pino',
  '{"level":50,"msg":"a raw pino line the launcher did not print"}',
].join('\n');

describe("the launcher output's error lines (what faults.e2e shows when it fails)", () => {
  it('keeps the error and fatal lines of every part, as the launcher prints them', () => {
    expect(errorLines(output).split('\n')).toEqual([
      '[gateway] 14:03:19 ERROR unhandled error err={"type":"Error","message":"boom"}',
      '[mongo] 14:03:21 FATAL out of memory',
    ]);
  });

  it('keeps the last ones when there are more than asked for', () => {
    expect(errorLines(output, 1)).toBe('[mongo] 14:03:21 FATAL out of memory');
  });
});
