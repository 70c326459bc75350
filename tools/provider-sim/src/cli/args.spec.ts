import { describe, expect, it } from 'vitest';
import { DEFAULT_DEV_KEY, parseCliArgs } from './args.js';

describe('parseCliArgs', () => {
  it('reads repeated keys, quota and port', () => {
    const parsed = parseCliArgs([
      '--port',
      '4010',
      '--key',
      'k1_aaaaa',
      '--key',
      'k2_bbbbb',
      '--quota',
      '50',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 4010,
        host: '127.0.0.1',
        logger: true,
        keys: [
          { key: 'k1_aaaaa', quotaTotal: 50 },
          { key: 'k2_bbbbb', quotaTotal: 50 },
        ],
      },
    });
  });

  it('defaults to the dev key and port 4010', () => {
    const parsed = parseCliArgs(['--quiet', '--webhook-url', 'http://127.0.0.1:3000/hook']);
    expect(parsed.help).toBe(false);
    if (parsed.help) return;
    expect(parsed.options.keys).toEqual([
      { key: DEFAULT_DEV_KEY, webhookUrl: 'http://127.0.0.1:3000/hook' },
    ]);
    expect(parsed.options.port).toBe(4010);
    expect(parsed.options.logger).toBe(false);
  });

  it('refuses bad numbers and unknown flags', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port/);
    expect(() => parseCliArgs(['--bogus'])).toThrow();
    expect(parseCliArgs(['--help'])).toEqual({ help: true });
  });
});
