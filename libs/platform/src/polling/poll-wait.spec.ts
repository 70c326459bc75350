import { describe, expect, it } from 'vitest';
import { PollWait } from './poll-wait.js';

describe('the wait between a poller’s looks', () => {
  it('starts at the busy interval and doubles after each empty look, up to the idle one', () => {
    const wait = new PollWait(1_000, 10_000);
    const waits = [wait.ms];
    for (let look = 0; look < 6; look++) waits.push(wait.looked(false));
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000]);
  });

  it('comes back to the busy interval after a look that found work, from any wait', () => {
    const wait = new PollWait(500, 5_000);
    for (let look = 0; look < 5; look++) wait.looked(false);
    expect(wait.ms).toBe(5_000);
    expect(wait.looked(true)).toBe(500);
    wait.looked(false);
    expect(wait.looked(true)).toBe(500);
  });

  it('says when work seen between looks shortened the wait, so its timer is re-armed', () => {
    const wait = new PollWait(1_000, 10_000);
    expect(wait.busy()).toBe(false);
    wait.looked(false);
    expect(wait.busy()).toBe(true);
    expect(wait.ms).toBe(1_000);
  });

  it('raises an idle interval shorter than the busy one to it', () => {
    expect(new PollWait(2_000, 500).looked(false)).toBe(2_000);
  });
});
