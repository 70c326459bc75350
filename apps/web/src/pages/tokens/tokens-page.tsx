import { useState } from 'preact/hooks';
import { api, withQuery } from '../../api.js';
import type { NewToken, Token, TokenPage } from '../../api-types.js';
import { ConfirmButton, formatDate } from '../../components/confirm.js';
import { Link } from '../../components/link.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { setQuery, useRoute } from '../../router.js';
import { MAX_ACTIVE_TOKENS, TOKEN_POLICY_PERMISSION } from '@inventory/access';
import { can, useSession } from '../../session.js';
import { TokenForm } from './token-form.js';
import { ExpiryBadge } from './expiry-badge.js';
import { MemberTokens } from './member-tokens.js';
import { NewTokenSecret } from './new-token-secret.js';
import { RegenerateForm } from './regenerate-form.js';
import { PolicyBreachBadge, TokenPolicyPanel } from './token-policy-panel.js';
import { scopesText } from './scopes.js';

/** Settings → Developer → Personal Access Tokens. */
export function TokensPage() {
  const { query } = useRoute();
  const page = Number(query.get('page') ?? '1') || 1;
  const tokens = useLoad(
    () => api<TokenPage>('GET', withQuery('/api/personal-access-tokens', { page, per_page: 20 })),
    `tokens:${page}`,
  );
  const [mode, setMode] = useState<
    | { kind: 'list' }
    | { kind: 'create' }
    | { kind: 'edit'; token: Token }
    | { kind: 'regenerate'; token: Token }
  >({ kind: 'list' });
  const [created, setCreated] = useState<(Token & Partial<NewToken>) | null>(null);
  const [notice, setNotice] = useState('');
  // A notice is about the last action: the next one starts without it.
  const start = (next: typeof mode) => {
    setNotice('');
    setMode(next);
  };
  const atLimit = (tokens.data?.total ?? 0) >= MAX_ACTIVE_TOKENS;
  const { user } = useSession();
  // Members' tokens carry the policy's flags: read again when it changes.
  const [policyVersion, setPolicyVersion] = useState(0);

  return (
    <section>
      <p class="crumbs">Settings › Developer</p>
      <h1>Personal access tokens</h1>
      <p>Tokens let scripts and integrations call the API as you. Treat them like passwords.</p>
      <TokenPolicyPanel
        onSaved={() => {
          tokens.reload();
          setPolicyVersion((version) => version + 1);
        }}
      />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {created?.token && (
        <NewTokenSecret
          name={created.name}
          token={created.token}
          onDismiss={() => setCreated(null)}
        />
      )}
      {mode.kind === 'list' ? (
        <div class="row">
          <button
            type="button"
            class="primary"
            disabled={atLimit}
            onClick={() => start({ kind: 'create' })}
          >
            New token
          </button>
          {atLimit && (
            <p class="field-error">
              You have {MAX_ACTIVE_TOKENS} active tokens, the most allowed. Revoke one to create
              another.
            </p>
          )}
        </div>
      ) : mode.kind === 'regenerate' ? (
        <RegenerateForm
          token={mode.token}
          onCancel={() => setMode({ kind: 'list' })}
          onDone={(regenerated) => {
            setMode({ kind: 'list' });
            setCreated(regenerated);
            setNotice(`Regenerated “${regenerated.name}”: the previous token no longer works.`);
            tokens.reload();
          }}
        />
      ) : (
        <TokenForm
          token={mode.kind === 'edit' ? mode.token : undefined}
          onCancel={() => setMode({ kind: 'list' })}
          onDone={(saved) => {
            setMode({ kind: 'list' });
            if (saved.token) setCreated(saved);
            setNotice(mode.kind === 'edit' ? `Saved “${saved.name}”.` : '');
            tokens.reload();
          }}
        />
      )}
      <Async state={tokens} lines={6} label="Loading your tokens…">
        {(list) =>
          list.data.length === 0 ? (
            <Empty>You have no tokens yet.</Empty>
          ) : (
            <>
              <div class="table-wrap">
                <table class="stack">
                  <caption class="visually-hidden">Your active tokens</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Scopes</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Expires</th>
                      <th scope="col">IP allowlist</th>
                      <th scope="col">Rate limit</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.map((token) => (
                      <tr key={token.id} data-token-id={token.id}>
                        <td data-label="Name">
                          <Link to={`/settings/developer/tokens/${token.id}`}>{token.name}</Link>
                          <PolicyBreachBadge rules={token.policy_violations} />
                        </td>
                        <td data-label="Scopes">{scopesText(token.scopes)}</td>
                        <td data-label="Created">{formatDate(token.created_at)}</td>
                        <td data-label="Last used">
                          {token.last_used_at ? formatDate(token.last_used_at) : 'never'}
                        </td>
                        <td data-label="Expires">
                          <ExpiryBadge expiresAt={token.expires_at} />
                        </td>
                        <td data-label="IP allowlist">
                          {token.ip_allowlist.length ? token.ip_allowlist.join(', ') : 'any'}
                        </td>
                        <td data-label="Rate limit">
                          {token.rate_limit_per_minute
                            ? `${token.rate_limit_per_minute}/min`
                            : 'default'}
                        </td>
                        <td class="actions" data-label="Actions">
                          <button type="button" onClick={() => start({ kind: 'edit', token })}>
                            Edit
                          </button>
                          <button
                            type="button"
                            onClick={() => start({ kind: 'regenerate', token })}
                          >
                            Regenerate
                          </button>
                          <ConfirmButton
                            label="Revoke"
                            danger
                            question={`Revoke “${token.name}”? Calls with it stop working at once.`}
                            confirmLabel="Yes, revoke"
                            onConfirm={async () => {
                              await api('DELETE', `/api/personal-access-tokens/${token.id}`);
                              setNotice(`Revoked “${token.name}”.`);
                              tokens.reload();
                            }}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                page={list.current_page}
                lastPage={list.last_page}
                total={list.total}
                onPage={(next) => setQuery({ page: String(next) })}
              />
            </>
          )
        }
      </Async>
      {can(user, TOKEN_POLICY_PERMISSION) && <MemberTokens refreshKey={policyVersion} />}
    </section>
  );
}
