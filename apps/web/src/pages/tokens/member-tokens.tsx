import { useState } from 'preact/hooks';
import { api, withQuery } from '../../api.js';
import type { MemberTokenPage } from '../../api-types.js';
import { ConfirmButton, formatDate } from '../../components/confirm.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { ExpiryBadge } from './expiry-badge.js';
import { PolicyBreachBadge } from './token-policy-panel.js';
import { scopesText } from './scopes.js';

/**
 * Every member's tokens, for an admin holding `tokens:govern` (ADR 0121): whose, what they grant,
 * where and with what each was last used, and a revoke that alerts the token's owner.
 */
export function MemberTokens(props: { refreshKey: number }) {
  // Closed until asked for: the admin's own tokens are listed above, and most visits are for them.
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="member-tokens-title">
      <h2 id="member-tokens-title">Every member's tokens</h2>
      <p class="hint">
        As an admin you see every token of the organisation. Revoking one stops it at once and tells
        its owner.
      </p>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide every member's tokens" : "Show every member's tokens"}
      </button>
      {open && <MemberTokenList refreshKey={props.refreshKey} />}
    </section>
  );
}

function MemberTokenList(props: { refreshKey: number }) {
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState('');
  const tokens = useLoad(
    () =>
      api<MemberTokenPage>(
        'GET',
        withQuery('/api/organization/personal-access-tokens', { page, per_page: 20 }),
      ),
    `member-tokens:${page}:${props.refreshKey}`,
  );
  return (
    <>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <Async state={tokens} lines={5} label="Loading every member's tokens…">
        {(list) =>
          list.data.length === 0 ? (
            <Empty>No member has a token.</Empty>
          ) : (
            <>
              <div class="table-wrap">
                <table class="stack" aria-label="Every member's tokens">
                  <thead>
                    <tr>
                      <th scope="col">Owner</th>
                      <th scope="col">Name</th>
                      <th scope="col">Scopes</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.map((token) => (
                      <tr key={token.id} data-member-token-id={token.id}>
                        <td data-label="Owner">
                          {token.user.name || token.user.email}
                          <span class="hint block">{token.user.email}</span>
                        </td>
                        <td data-label="Name">
                          {token.name}
                          <PolicyBreachBadge rules={token.policy_violations} />
                        </td>
                        <td data-label="Scopes">{scopesText(token.scopes)}</td>
                        <td data-label="Created">{formatDate(token.created_at)}</td>
                        <td data-label="Last used">
                          {token.last_used_at ? (
                            <>
                              {formatDate(token.last_used_at)}
                              {token.last_used_ip && (
                                <span class="hint block">from {token.last_used_ip}</span>
                              )}
                              {token.last_used_user_agent && (
                                <span class="hint block">{token.last_used_user_agent}</span>
                              )}
                            </>
                          ) : (
                            'never'
                          )}
                        </td>
                        <td data-label="Expires">
                          <ExpiryBadge expiresAt={token.expires_at} />
                        </td>
                        <td class="actions" data-label="Actions">
                          <ConfirmButton
                            label="Revoke"
                            danger
                            question={`Revoke “${token.name}” of ${token.user.email}? Calls with it stop at once; they are told.`}
                            confirmLabel="Yes, revoke"
                            onConfirm={async () => {
                              await api(
                                'DELETE',
                                `/api/organization/personal-access-tokens/${token.id}`,
                              );
                              setNotice(`Revoked “${token.name}” of ${token.user.email}.`);
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
                onPage={setPage}
              />
            </>
          )
        }
      </Async>
    </>
  );
}
