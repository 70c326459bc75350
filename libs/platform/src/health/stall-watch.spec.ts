import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StallWatch, unlessStalled } from './stall-watch.js';

/**
 * The watch's timing on an injected clock: how often it pings an idle and a busy peer, and that
 * a freeze is judged whatever the peer was doing before it (ADRs 0744, 0747).
 */
describe('StallWatch', () => {
  /**
   * A peer whose pings are answered at once; while frozen they are held, and answered on the
   * thaw, as a process stopped with SIGSTOP answers what waits in its socket; while down they fail.
   */
  const peer = () => {
    const held: (() => void)[] = [];
    const state = { pings: 0, frozen: false, down: false };
    const ping = () => {
      state.pings++;
      if (state.down) return Promise.reject(new Error('connection refused'));
      return state.frozen ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
    };
    const thaw = () => {
      state.frozen = false;
      for (const answer of held.splice(0)) answer();
    };
    return { state, ping, thaw };
  };
  const options = {
    pingEveryMs: 100,
    stallMs: 600,
    idlePingEveryMs: 1_000,
    idleAfterMs: 1_000,
    failureStalls: false,
  };
  let watch: StallWatch | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    watch?.stop();
    vi.useRealTimers();
  });

  it('pings an idle peer once a second, and a peer in use ten times a second', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('idle-peer', ping, options).start();

    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.pings).toBe(10);

    state.pings = 0;
    for (let elapsed = 0; elapsed < 10_000; elapsed += 50) {
      watch.noteDemand();
      await vi.advanceTimersByTimeAsync(50);
    }
    // One at the first demand, then one a tick.
    expect(state.pings).toBe(101);
  });

  it('goes back to the idle rate once work stops', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('quieting-peer', ping, options).start();
    watch.noteDemand();
    await vi.advanceTimersByTimeAsync(2_000);

    state.pings = 0;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.pings).toBe(10);
  });

  it('pings at once when work starts for an idle peer, and judges a freeze found by that work within stallMs', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('frozen-while-idle', ping, options).start();
    await vi.advanceTimersByTimeAsync(1_000);
    state.frozen = true;
    const pingsBefore = state.pings;

    const refused = new Error('refused');
    const call = unlessStalled(
      watch,
      () => refused,
      () => new Promise<never>(() => undefined),
    );
    expect(state.pings).toBe(pingsBefore + 1);
    const answered = call.catch((error: unknown) => error);

    await vi.advanceTimersByTimeAsync(options.stallMs + options.pingEveryMs);
    expect(watch.stalled()).toBe(true);
    expect(await answered).toBe(refused);
  });

  it('judges a freeze that follows a reply to real work while a ping was outstanding', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('frozen-after-a-reply', ping, options).start();
    watch.noteDemand();
    await vi.advanceTimersByTimeAsync(250);

    // The ping left just before the freeze; a call's reply came after it, then nothing.
    state.frozen = true;
    await vi.advanceTimersByTimeAsync(options.pingEveryMs);
    watch.noteProgress();
    for (let elapsed = 0; elapsed < 2_000 && !watch.stalled(); elapsed += 50) {
      watch.noteDemand();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(watch.stalled()).toBe(true);
  });

  it('does not judge a ping outstanding while real work keeps being answered', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('busy-peer', ping, options).start();
    watch.noteDemand();
    await vi.advanceTimersByTimeAsync(250);

    state.frozen = true; // its health answers nothing, yet its calls are answered
    for (let elapsed = 0; elapsed < 5_000; elapsed += 50) {
      watch.noteDemand();
      watch.noteProgress();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(watch.stalled()).toBe(false);
  });

  it('serves again as soon as a frozen peer thaws, after any time idle', async () => {
    const { state, ping, thaw } = peer();
    watch = new StallWatch('thawing-peer', ping, options).start();
    watch.noteDemand();
    state.frozen = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(watch.stalled()).toBe(true);

    await vi.advanceTimersByTimeAsync(10_000);
    thaw();
    await vi.advanceTimersByTimeAsync(0);
    expect(watch.stalled()).toBe(false);
  });

  it('pings a peer stalled by a failed ping at the in-use rate even while idle', async () => {
    const { state, ping } = peer();
    watch = new StallWatch('refusing-store', ping, { ...options, failureStalls: true }).start();
    await vi.advanceTimersByTimeAsync(1_000);
    state.down = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(watch.stalled()).toBe(true);

    state.pings = 0;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(state.pings).toBe(10);
    state.down = false;
    await vi.advanceTimersByTimeAsync(options.pingEveryMs);
    expect(watch.stalled()).toBe(false);
  });
});
