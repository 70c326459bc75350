import { useState } from 'preact/hooks';
import { SCOPES, TOKEN_POLICY_PERMISSION } from '@inventory/access';
import { api, ApiError } from '../../api.js';
import type { TokenPolicy, TokenPolicyAnswer, TokenPolicySaved } from '../../api-types.js';
import { FieldError, FormError } from '../../components/field.js';
import { ErrorState, Loading, useLoad } from '../../components/states.js';
import { messagesFor } from '../../messages.js';
import { can, useSession } from '../../session.js';

/** What a flagged token breaks, as its owner reads it beside the token. */
const POLICY_RULE_LABELS: Record<string, string> = {
  max_lifetime: 'expires later than allowed',
  no_expiry: 'must expire',
  member_scopes: 'has scopes members may not grant',
  ip_allowlist: 'needs an IP allowlist',
  unused: 'not used for a long time: still needed?',
};

/** The rules of the policy a token breaks, beside its name; nothing when it keeps to them. */
export function PolicyBreachBadge(props: { rules: readonly string[] }) {
  if (props.rules.length === 0) return null;
  return (
    <span class="badge policy-breach" data-testid="policy-breach">
      Breaks the policy: {props.rules.map((rule) => POLICY_RULE_LABELS[rule] ?? rule).join('; ')}
    </span>
  );
}

/** The policy in a sentence or three: what a person creating a token must keep to. */
export function policySummary(policy: TokenPolicy): string[] {
  const rules: string[] = [];
  if (policy.max_lifetime_days !== null)
    rules.push(`Tokens expire within ${policy.max_lifetime_days} days.`);
  else if (!policy.allow_no_expiry) rules.push('Tokens must have an expiry.');
  if (policy.member_scopes !== null)
    rules.push(
      policy.member_scopes.length
        ? `Members may grant only: ${policy.member_scopes.join(', ')}.`
        : 'Members may grant no scope.',
    );
  if (policy.require_ip_allowlist) rules.push('Every token needs an IP allowlist.');
  if (policy.flag_unused_after_days !== null)
    rules.push(
      policy.expire_unused
        ? `Tokens unused for ${policy.flag_unused_after_days} days expire; their owners are warned 7 days before.`
        : `Tokens unused for ${policy.flag_unused_after_days} days are flagged for review.`,
    );
  return rules;
}

const FIELDS = [
  'max_lifetime_days',
  'allow_no_expiry',
  'member_scopes',
  'require_ip_allowlist',
  'flag_unused_after_days',
  'expire_unused',
];

/**
 * The organisation's token policy above the tokens list: everyone sees it; a user holding
 * `tokens:govern` edits it. Saving says how many tokens now break it (flagged, not changed).
 */
export function TokenPolicyPanel(props: { onSaved: () => void }) {
  const { user } = useSession();
  const policy = useLoad(() => api<TokenPolicyAnswer>('GET', '/api/token-policy'), 'token-policy');
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState('');
  if (policy.error) return <ErrorState error={policy.error} onRetry={policy.reload} />;
  if (!policy.data) return <Loading lines={1} label="Loading the token policy…" />;
  const current = policy.data.data;
  const rules = policySummary(current);
  return (
    <section class="card" aria-labelledby="policy-title">
      <h2 id="policy-title">Token policy</h2>
      {rules.length ? (
        <ul data-testid="policy-rules">
          {rules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      ) : (
        <p data-testid="policy-rules">No organisation rules: the platform's limits apply.</p>
      )}
      {saved && (
        <p class="notice" role="status">
          {saved}
        </p>
      )}
      {can(user, TOKEN_POLICY_PERMISSION) &&
        (editing ? (
          <PolicyForm
            policy={current}
            onCancel={() => setEditing(false)}
            onSaved={(answer) => {
              setEditing(false);
              setSaved(
                answer.tokens_breaking === 0
                  ? 'Saved. Every active token keeps to it.'
                  : `Saved. ${answer.tokens_breaking} active ${answer.tokens_breaking === 1 ? 'token breaks' : 'tokens break'} it: they keep working, flagged for their owners.`,
              );
              policy.reload();
              props.onSaved();
            }}
          />
        ) : (
          <button
            type="button"
            onClick={() => {
              setSaved('');
              setEditing(true);
            }}
          >
            Edit policy
          </button>
        ))}
    </section>
  );
}

function PolicyForm(props: {
  policy: TokenPolicy;
  onSaved: (answer: TokenPolicySaved) => void;
  onCancel: () => void;
}) {
  const [days, setDays] = useState(props.policy.max_lifetime_days?.toString() ?? '');
  const [allowNever, setAllowNever] = useState(props.policy.allow_no_expiry);
  const [restrict, setRestrict] = useState(props.policy.member_scopes !== null);
  const [memberScopes, setMemberScopes] = useState<string[]>(props.policy.member_scopes ?? []);
  const [allowlist, setAllowlist] = useState(props.policy.require_ip_allowlist);
  const [unusedDays, setUnusedDays] = useState(
    props.policy.flag_unused_after_days?.toString() ?? '',
  );
  const [expireUnused, setExpireUnused] = useState(props.policy.expire_unused);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const bounded = days.trim() !== '';
  const errors = error?.fieldErrors;
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ data: TokenPolicySaved }>('PUT', '/api/token-policy', {
        max_lifetime_days: bounded ? Number(days) : null,
        allow_no_expiry: bounded ? false : allowNever,
        member_scopes: restrict ? memberScopes : null,
        require_ip_allowlist: allowlist,
        flag_unused_after_days: unusedDays.trim() === '' ? null : Number(unusedDays),
        expire_unused: unusedDays.trim() === '' ? false : expireUnused,
      });
      props.onSaved(answer.data);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label="Token policy" onSubmit={submit} noValidate>
      <FormError error={error} fields={FIELDS} />
      <div class="field">
        <label for="policy-days">Maximum lifetime (days)</label>
        <input
          id="policy-days"
          inputMode="numeric"
          value={days}
          aria-describedby="policy-days-hint policy-days-error"
          onInput={(event) => setDays((event.target as HTMLInputElement).value)}
        />
        <p class="hint" id="policy-days-hint">
          Empty: no bound. A token made or regenerated may not expire later than this.
        </p>
        <FieldError id="policy-days-error" messages={messagesFor(errors, 'max_lifetime_days')} />
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={bounded ? false : allowNever}
          disabled={bounded}
          onChange={(event) => setAllowNever((event.target as HTMLInputElement).checked)}
        />
        Allow tokens that never expire
      </label>
      <FieldError id="policy-never-error" messages={messagesFor(errors, 'allow_no_expiry')} />
      <label class="check">
        <input
          type="checkbox"
          checked={allowlist}
          onChange={(event) => setAllowlist((event.target as HTMLInputElement).checked)}
        />
        Require an IP allowlist on every token
      </label>
      <div class="field">
        <label for="policy-unused">Flag tokens unused for (days)</label>
        <input
          id="policy-unused"
          inputMode="numeric"
          value={unusedDays}
          aria-describedby="policy-unused-hint policy-unused-error"
          onInput={(event) => setUnusedDays((event.target as HTMLInputElement).value)}
        />
        <p class="hint" id="policy-unused-hint">
          Empty: never. Flagged tokens keep working; their owners see the flag.
        </p>
        <FieldError
          id="policy-unused-error"
          messages={messagesFor(errors, 'flag_unused_after_days')}
        />
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={unusedDays.trim() !== '' && expireUnused}
          disabled={unusedDays.trim() === ''}
          onChange={(event) => setExpireUnused((event.target as HTMLInputElement).checked)}
        />
        Expire unused tokens (their owners are warned 7 days before)
      </label>
      <FieldError id="policy-expire-error" messages={messagesFor(errors, 'expire_unused')} />
      <fieldset>
        <legend>
          <label class="check">
            <input
              type="checkbox"
              checked={restrict}
              onChange={(event) => setRestrict((event.target as HTMLInputElement).checked)}
            />
            Limit the scopes members may grant (owners may grant any)
          </label>
        </legend>
        {restrict && (
          <div class="scope-choices" role="group" aria-label="Scopes members may grant">
            {SCOPES.map((scope) => (
              <label class="check" key={scope}>
                <input
                  type="checkbox"
                  value={scope}
                  checked={memberScopes.includes(scope)}
                  onChange={(event) =>
                    setMemberScopes(
                      (event.target as HTMLInputElement).checked
                        ? [...memberScopes, scope]
                        : memberScopes.filter((held) => held !== scope),
                    )
                  }
                />
                {scope}
              </label>
            ))}
          </div>
        )}
        <FieldError id="policy-scopes-error" messages={messagesFor(errors, 'member_scopes')} />
      </fieldset>
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save policy'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
