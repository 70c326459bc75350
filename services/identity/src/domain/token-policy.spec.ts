import { describe, expect, it } from 'vitest';
import {
  checkPolicy,
  isUnused,
  OPEN_POLICY,
  policyBreaches,
  type TokenPolicy,
} from './token-policy.js';
import { Violations } from './validation.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
const TOKEN = {
  expires_at: inDays(30) as Date | null,
  scopes: ['orders:read'],
  ip_allowlist: [] as string[],
  holderIsOwner: false,
};
const rules = (policy: TokenPolicy, token = TOKEN) =>
  policyBreaches(policy, token, NOW).map((breach) => breach.rule);

describe('policyBreaches (ADR 0120)', () => {
  it('finds nothing under the open policy, whatever the token', () => {
    expect(rules(OPEN_POLICY, { ...TOKEN, expires_at: null, scopes: ['webhooks:manage'] })).toEqual(
      [],
    );
  });

  it('bounds the expiry from now: the last allowed instant passes, a second later does not', () => {
    const policy = { ...OPEN_POLICY, max_lifetime_days: 90, allow_no_expiry: false };
    expect(rules(policy, { ...TOKEN, expires_at: inDays(90) })).toEqual([]);
    const late = policyBreaches(
      policy,
      { ...TOKEN, expires_at: new Date(inDays(90).getTime() + 1000) },
      NOW,
    );
    expect(late).toEqual([
      {
        rule: 'max_lifetime',
        field: 'expires_at',
        message:
          "Your organisation's token policy allows at most 90 days: choose an expiry on or before 2027-02-27.",
      },
    ]);
  });

  it('requires an expiry when never-expiring is forbidden, or when a lifetime is set', () => {
    expect(
      rules({ ...OPEN_POLICY, allow_no_expiry: false }, { ...TOKEN, expires_at: null }),
    ).toEqual(['no_expiry']);
    expect(
      rules(
        { ...OPEN_POLICY, max_lifetime_days: 7, allow_no_expiry: false },
        {
          ...TOKEN,
          expires_at: null,
        },
      ),
    ).toEqual(['no_expiry']);
  });

  it("limits a member's scopes, naming each refused one, and leaves an owner's alone", () => {
    const policy = { ...OPEN_POLICY, member_scopes: ['orders:read', 'products:read'] };
    const member = { ...TOKEN, scopes: ['orders:read', 'orders:write', 'webhooks:manage'] };
    expect(policyBreaches(policy, member, NOW)).toEqual([
      {
        rule: 'member_scopes',
        field: 'scopes',
        message:
          "Your organisation's token policy does not let members grant orders:write, webhooks:manage.",
      },
    ]);
    expect(rules(policy, { ...member, holderIsOwner: true })).toEqual([]);
    expect(rules({ ...OPEN_POLICY, member_scopes: [] }, member)).toEqual(['member_scopes']);
  });

  it('requires an allowlist when the policy does, and reports every rule broken at once', () => {
    const policy: TokenPolicy = {
      max_lifetime_days: 1,
      allow_no_expiry: false,
      member_scopes: [],
      require_ip_allowlist: true,
      flag_unused_after_days: null,
      expire_unused: false,
    };
    expect(rules(policy)).toEqual(['max_lifetime', 'member_scopes', 'ip_allowlist']);
    expect(
      rules(policy, { ...TOKEN, expires_at: inDays(1), scopes: [], ip_allowlist: ['10.0.0.0/8'] }),
    ).toEqual([]);
  });
});

describe('checkPolicy', () => {
  const check = (policy: TokenPolicy) => {
    const violations = new Violations();
    const checked = checkPolicy(policy, violations);
    return { checked, fields: violations.list.map((violation) => violation.field) };
  };

  it('refuses a lifetime out of 1..3650 or not whole, and never-expiring beside a lifetime', () => {
    for (const days of [0, -1, 3651, 1.5])
      expect(
        check({ ...OPEN_POLICY, max_lifetime_days: days, allow_no_expiry: false }).fields,
      ).toEqual(['max_lifetime_days']);
    expect(check({ ...OPEN_POLICY, max_lifetime_days: 30 }).fields).toEqual(['allow_no_expiry']);
    expect(
      check({ ...OPEN_POLICY, max_lifetime_days: 3650, allow_no_expiry: false }).fields,
    ).toEqual([]);
  });

  it('names each unknown member scope, __proto__ and a NUL byte included, and removes repeats', () => {
    const { checked, fields } = check({
      ...OPEN_POLICY,
      member_scopes: ['orders:read', '__proto__', 'orders:read', 'x\u0000'],
    });
    expect(fields).toEqual(['member_scopes.1', 'member_scopes.3']);
    expect(checked.member_scopes).toEqual(['orders:read', '__proto__', 'x\u0000']);
    expect(
      check({ ...OPEN_POLICY, member_scopes: ['orders:read', 'orders:read'] }).checked
        .member_scopes,
    ).toEqual(['orders:read']);
  });
});

describe('isUnused', () => {
  const policy = { ...OPEN_POLICY, flag_unused_after_days: 90 };
  const made = inDays(-200);

  it('counts from the last use, or from creation when never used; never under no setting', () => {
    expect(isUnused(policy, { last_used_at: inDays(-90), created_at: made }, NOW)).toBe(false);
    expect(isUnused(policy, { last_used_at: inDays(-91), created_at: made }, NOW)).toBe(true);
    expect(isUnused(policy, { last_used_at: null, created_at: inDays(-10) }, NOW)).toBe(false);
    expect(isUnused(policy, { last_used_at: null, created_at: made }, NOW)).toBe(true);
    expect(isUnused(OPEN_POLICY, { last_used_at: null, created_at: made }, NOW)).toBe(false);
  });

  it('takes a setting of 1 to 365 days', () => {
    for (const days of [0, 366, 2.5]) {
      const violations = new Violations();
      checkPolicy({ ...OPEN_POLICY, flag_unused_after_days: days }, violations);
      expect(violations.list.map((violation) => violation.field)).toEqual([
        'flag_unused_after_days',
      ]);
    }
  });
});
