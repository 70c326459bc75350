import { describe, expect, it } from 'vitest';
import { eventually, waitFor } from './eventually.js';

describe('eventually', () => {
  it('retries a throwing check until it passes and gives back its answer', async () => {
    let attempts = 0;
    const answer = await eventually(
      () => {
        attempts += 1;
        expect(attempts).toBe(3);
        return 'third';
      },
      { everyMs: 1 },
    );
    expect(answer).toBe('third');
    expect(attempts).toBe(3);
  });

  it('throws the last error, naming what was awaited, once the cap is reached', async () => {
    let attempts = 0;
    const failure = await eventually(
      () => {
        attempts += 1;
        throw new Error(`attempt ${attempts}`);
      },
      { timeoutMs: 0, everyMs: 1, what: 'the impossible' },
    ).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe(
      `timed out after 0 ms waiting for the impossible: attempt ${attempts}`,
    );
  });
});

describe('waitFor', () => {
  it('retries while the answer is undefined or false, then gives back the first other one', async () => {
    const answers = [undefined, false, 0, 1] as const;
    let attempts = 0;
    expect(await waitFor(() => answers[attempts++], { everyMs: 1 })).toBe(0);
    expect(attempts).toBe(3);
  });

  it('names what it waited for when the cap is reached', async () => {
    await expect(waitFor(() => undefined, { timeoutMs: 0, what: 'a delivery' })).rejects.toThrow(
      'timed out after 0 ms waiting for a delivery: the answer is still undefined',
    );
  });
});
