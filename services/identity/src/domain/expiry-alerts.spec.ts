import { describe, expect, it } from 'vitest';
import { expiryMark, expiryStage } from './expiry-alerts.js';

const now = new Date('2026-06-01T12:00:00Z');
const inHours = (hours: number) => new Date(now.getTime() + hours * 3600 * 1000);

describe('expiry alert stages (ADR 0118)', () => {
  it('7 days, 1 day, expired: only the most urgent stage a token is in', () => {
    expect(expiryStage(inHours(7 * 24 + 1), now)).toBeUndefined();
    expect(expiryStage(inHours(7 * 24), now)).toBe('7d');
    expect(expiryStage(inHours(25), now)).toBe('7d');
    expect(expiryStage(inHours(24), now)).toBe('1d');
    expect(expiryStage(inHours(1), now)).toBe('1d');
    expect(expiryStage(now, now)).toBe('expired');
    expect(expiryStage(inHours(-6 * 24), now)).toBe('expired');
  });

  it('a token that expired more than 7 days ago is not announced', () => {
    expect(expiryStage(inHours(-7 * 24), now)).toBeUndefined();
  });

  it('marks one stage of one expiry: an extended token gets marks of its own', () => {
    expect(expiryMark('1d', inHours(5))).toBe(`1d@${inHours(5).getTime()}`);
    expect(expiryMark('1d', inHours(5))).not.toBe(expiryMark('1d', inHours(30 * 24)));
  });
});
