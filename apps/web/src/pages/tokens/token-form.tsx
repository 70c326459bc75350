import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import { useRetryKey } from '../../retry-key.js';
import { FieldError, FormError, TextField } from '../../components/field.js';
import { messagesFor } from '../../messages.js';
import { useSession } from '../../session.js';
import { addedElevatedScopes, SCOPES, type Scope } from '@inventory/access';
import type { NewToken, NewTokenAnswer, Token, TokenAnswer } from '../../api-types.js';
import { EXPIRY_PRESETS, SCOPE_GRANTS, scopesByResource } from './scopes.js';

/** What the create form sends. */
interface NewTokenBody {
  name: string;
  scopes: string[];
  expires_at?: string;
  ip_allowlist?: string[];
  rate_limit_per_minute?: number | string;
}

const FIELDS = [
  'name',
  'scopes',
  'expires_at',
  'ip_allowlist',
  'rate_limit_per_minute',
  'password',
  'two_factor_code',
];

/** The allowlist's ranges in order, each with its line (commas and spaces also separate). */
export function allowlistEntries(text: string): Array<{ value: string; line: number }> {
  return text.split('\n').flatMap((row, index) =>
    row
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((value) => ({ value, line: index + 1 })),
  );
}

/**
 * Create (no `token`) or edit a token. On edit, adding a :write or :manage scope needs the
 * password (and the 2FA code when it is on): the API checks them; the form asks for them.
 */
export function TokenForm(props: {
  token?: Token;
  onDone: (saved: Token & Partial<NewToken>) => void;
  onCancel: () => void;
}) {
  const { user } = useSession();
  const editing = props.token;
  const [name, setName] = useState(editing?.name ?? '');
  const [scopes, setScopes] = useState<string[]>(editing?.scopes ?? []);
  // A preset number of days (30 by default, as GitHub), a custom date, or never.
  const [preset, setPreset] = useState<string>('30');
  const [expiry, setExpiry] = useState('');
  const [allowlist, setAllowlist] = useState((editing?.ip_allowlist ?? []).join('\n'));
  const [rateLimit, setRateLimit] = useState(
    editing?.rate_limit_per_minute ? String(editing.rate_limit_per_minute) : '',
  );
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = error?.fieldErrors;
  // The form opens where the person works next: its name.
  const formRef = useRef<HTMLFormElement>(null);
  const retryKey = useRetryKey<NewTokenBody>();
  useEffect(
    () => formRef.current?.querySelector<HTMLInputElement>('input[name="name"]')?.focus(),
    [],
  );

  // Each range with its line, so a message names the line it concerns.
  const entries = allowlistEntries(allowlist);
  const addsPrivileged = editing ? addedElevatedScopes(editing.scopes, scopes).length > 0 : false;

  const expiresAt =
    preset === 'never'
      ? undefined
      : preset === 'custom'
        ? expiry
          ? new Date(`${expiry}T23:59:59`).toISOString()
          : undefined
        : new Date(Date.now() + Number(preset) * 24 * 60 * 60 * 1000).toISOString();
  const readScopes = SCOPES.filter((scope) => scope.endsWith(':read'));
  const allRead = readScopes.every((scope) => scopes.includes(scope));

  const toggle = (scope: string, on: boolean) =>
    setScopes(on ? [...scopes, scope] : scopes.filter((item) => item !== scope));

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const ips = entries.map((entry) => entry.value);
    // A non-number goes as typed, so the API's message lands next to the field.
    const typed = rateLimit.trim();
    const limit = typed === '' ? null : /^\d+$/.test(typed) ? Number(typed) : typed;
    try {
      if (editing) {
        const answer = await api<TokenAnswer>(
          'PATCH',
          `/api/personal-access-tokens/${editing.id}`,
          {
            name,
            scopes,
            ip_allowlist: ips,
            rate_limit_per_minute: limit,
            ...(addsPrivileged
              ? { password, ...(user.two_factor_enabled ? { two_factor_code: code } : {}) }
              : {}),
          },
        );
        props.onDone(answer.data);
      } else {
        // A preset's expiry is computed at the submit: the inputs, not the body, name the attempt.
        const { body, key } = retryKey([name, scopes, preset, expiry, ips, limit], () => ({
          name,
          scopes,
          ...(expiresAt ? { expires_at: expiresAt } : {}),
          ...(ips.length ? { ip_allowlist: ips } : {}),
          ...(limit !== null ? { rate_limit_per_minute: limit } : {}),
        }));
        const answer = await api<NewTokenAnswer>('POST', '/api/personal-access-tokens', body, {
          idempotencyKey: key,
        });
        props.onDone(answer.data);
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    } finally {
      setBusy(false);
    }
  };

  const scopesErrors = messagesFor(errors, 'scopes');
  return (
    <form
      ref={formRef}
      class="card"
      onSubmit={submit}
      noValidate
      aria-label={editing ? 'Edit token' : 'New token'}
    >
      <h2>{editing ? `Edit “${editing.name}”` : 'New personal access token'}</h2>
      <TextField label="Name" name="name" value={name} onInput={setName} errors={errors} required />
      <fieldset aria-describedby={scopesErrors.length ? 'scopes-error' : undefined}>
        <legend>Scopes</legend>
        <p class="hint">
          A token acts as you, only within its scopes.{' '}
          <button
            type="button"
            onClick={() =>
              setScopes(
                allRead
                  ? scopes.filter((scope) => !scope.endsWith(':read'))
                  : [...new Set([...scopes, ...readScopes])],
              )
            }
          >
            {allRead ? 'Clear all read' : 'Select all read'}
          </button>
        </p>
        <div class="scope-groups">
          {scopesByResource().map(([resource, items]) => (
            <div class="scope-group" key={resource} role="group" aria-label={resource}>
              <strong>{resource}</strong>
              {items.map((scope) => (
                <div key={scope}>
                  <label class="check">
                    <input
                      type="checkbox"
                      name="scopes"
                      value={scope}
                      aria-describedby={`grants-${scope}`}
                      checked={scopes.includes(scope)}
                      onChange={(event) =>
                        toggle(scope, (event.target as HTMLInputElement).checked)
                      }
                    />
                    {scope}
                  </label>
                  <p class="hint grants" id={`grants-${scope}`}>
                    {SCOPE_GRANTS[scope as Scope]}
                  </p>
                </div>
              ))}
            </div>
          ))}
        </div>
        <FieldError id="scopes-error" messages={scopesErrors} />
      </fieldset>
      {!editing && (
        <div class="field">
          <label for="token-expiration">Expiration</label>
          <select
            id="token-expiration"
            name="expiration"
            value={preset}
            aria-describedby="token-expiration-hint"
            onChange={(event) => setPreset((event.target as HTMLSelectElement).value)}
          >
            {EXPIRY_PRESETS.map((days) => (
              <option key={days} value={String(days)}>
                {days} days
              </option>
            ))}
            <option value="custom">Custom date…</option>
            <option value="never">No expiration</option>
          </select>
          <p
            class={preset === 'never' ? 'hint warning' : 'hint'}
            id="token-expiration-hint"
            role={preset === 'never' ? 'status' : undefined}
          >
            {preset === 'never'
              ? 'A token without an expiration works until it is revoked. Prefer one that expires.'
              : expiresAt
                ? `The token will expire on ${new Date(expiresAt).toLocaleDateString(undefined, { dateStyle: 'full' })}.`
                : 'Pick the day it expires.'}
          </p>
          {preset !== 'custom' && (
            <FieldError id="token-expiration-error" messages={messagesFor(errors, 'expires_at')} />
          )}
        </div>
      )}
      {!editing && preset === 'custom' && (
        <TextField
          label="Expires on"
          name="expires_at"
          type="date"
          value={expiry}
          onInput={setExpiry}
          errors={errors}
          hint="The token stops working at the end of this day."
        />
      )}
      <TextField
        label="IP allowlist (optional)"
        name="ip_allowlist"
        multiline
        value={allowlist}
        onInput={setAllowlist}
        errors={errors}
        item={(index) => {
          const entry = entries[index];
          return entry ? `Line ${entry.line}, “${entry.value}”` : `Range ${index + 1}`;
        }}
        hint="CIDR ranges, one per line, e.g. 203.0.113.0/24. Empty allows any address."
      />
      <TextField
        label="Rate limit per minute (optional)"
        name="rate_limit_per_minute"
        inputMode="numeric"
        value={rateLimit}
        onInput={setRateLimit}
        errors={errors}
        hint="1–1000. Empty uses the platform's limit."
      />
      {addsPrivileged && (
        <div class="reauth" role="group" aria-label="Confirm it is you">
          <p>
            Adding a write or manage scope needs your password
            {user.two_factor_enabled ? ' and a two-factor code' : ''}.
          </p>
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onInput={setPassword}
            errors={errors}
            required
          />
          {user.two_factor_enabled && (
            <TextField
              label="Two-factor code"
              name="two_factor_code"
              autoComplete="one-time-code"
              value={code}
              onInput={setCode}
              errors={errors}
              required
            />
          )}
        </div>
      )}
      {error && <FormError error={error} fields={FIELDS} />}
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Create token'}
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
