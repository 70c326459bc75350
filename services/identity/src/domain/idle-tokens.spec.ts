import { describe, expect, it } from 'vitest';
import { IDLE_WARNING_MS, idleStep } from './idle-tokens.js';
import { OPEN_POLICY } from './token-policy.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-29T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const POLICY = { ...OPEN_POLICY, flag_unused_after_days: 30, expire_unused: true };

describe('idleStep (ADR 0122)', () => {
  it('does nothing unless the policy expires unused tokens', () => {
    const token = { last_used_at: ago(100), created_at: ago(200) };
    expect(idleStep({ ...POLICY, expire_unused: false }, token, NOW)).toBeUndefined();
    expect(idleStep({ ...POLICY, flag_unused_after_days: null }, token, NOW)).toBeUndefined();
  });

  it('warns 7 days before the period ends, naming the end', () => {
    expect(idleStep(POLICY, { last_used_at: ago(22), created_at: ago(90) }, NOW)).toBeUndefined();
    expect(idleStep(POLICY, { last_used_at: ago(23), created_at: ago(90) }, NOW)).toEqual({
      kind: 'warn',
      expiresAt: new Date(ago(23).getTime() + 30 * DAY),
    });
    // Never used: counted from its creation.
    expect(idleStep(POLICY, { last_used_at: null, created_at: ago(25) }, NOW)?.kind).toBe('warn');
  });

  it('gives a token idle long before the policy was set 7 days from the warning', () => {
    expect(idleStep(POLICY, { last_used_at: ago(400), created_at: ago(500) }, NOW)).toEqual({
      kind: 'warn',
      expiresAt: new Date(NOW.getTime() + IDLE_WARNING_MS),
    });
    const warned = { since: ago(400), at: ago(6) };
    expect(
      idleStep(POLICY, { last_used_at: ago(400), created_at: ago(500), idle_warning: warned }, NOW),
    ).toBeUndefined();
    const older = { since: ago(400), at: ago(7) };
    expect(
      idleStep(POLICY, { last_used_at: ago(400), created_at: ago(500), idle_warning: older }, NOW),
    ).toEqual({ kind: 'expire' });
  });

  it('expires only on the warning of the same idle period: a use since starts a new one', () => {
    const warning = { since: ago(31), at: ago(8) };
    expect(
      idleStep(POLICY, { last_used_at: ago(31), created_at: ago(90), idle_warning: warning }, NOW),
    ).toEqual({ kind: 'expire' });
    expect(
      idleStep(POLICY, { last_used_at: ago(2), created_at: ago(90), idle_warning: warning }, NOW),
    ).toBeUndefined();
    expect(
      idleStep(POLICY, { last_used_at: ago(24), created_at: ago(90), idle_warning: warning }, NOW)
        ?.kind,
    ).toBe('warn');
  });
});
