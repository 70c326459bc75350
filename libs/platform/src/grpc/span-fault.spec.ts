import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { serverSpanFault } from './span-fault.js';

describe('serverSpanFault', () => {
  it("names the server's faults", () => {
    expect(serverSpanFault(status.INTERNAL)).toBe('INTERNAL');
    expect(serverSpanFault(status.UNAVAILABLE)).toBe('UNAVAILABLE');
    expect(serverSpanFault(status.DEADLINE_EXCEEDED)).toBe('DEADLINE_EXCEEDED');
  });

  it('leaves an answer unmarked: success, not found, a refused input', () => {
    expect(serverSpanFault(status.OK)).toBeUndefined();
    expect(serverSpanFault(status.NOT_FOUND)).toBeUndefined();
    expect(serverSpanFault(status.INVALID_ARGUMENT)).toBeUndefined();
  });
});
