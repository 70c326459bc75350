import { useState } from 'preact/hooks';
import { api, withQuery } from '../../api.js';
import type { SubscriptionPage } from '../../api-types.js';
import { Link } from '../../components/link.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { setQuery, useRoute } from '../../router.js';
import { SecretOnce, SubscriptionForm } from './subscription-form.js';

/** Outbound webhook subscriptions. */
export function WebhooksPage() {
  const { query } = useRoute();
  const page = query.get('page') ?? '1';
  const list = useLoad(
    () =>
      api<SubscriptionPage>('GET', withQuery('/api/webhook-subscriptions', { page, per_page: 20 })),
    `subs:${page}`,
  );
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <section>
      <h1>Webhooks</h1>
      <p>Signed HTTP callbacks to your endpoints when things happen in your account.</p>
      {secret && (
        <SecretOnce
          secret={secret}
          note="Use it to verify each request's signature."
          onDismiss={() => setSecret(null)}
        />
      )}
      {creating ? (
        <SubscriptionForm
          onCancel={() => setCreating(false)}
          onDone={(saved) => {
            setCreating(false);
            setSecret(saved.secret ?? null);
            list.reload();
          }}
        />
      ) : (
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New subscription
        </button>
      )}
      <Async state={list} lines={5}>
        {(subs) =>
          subs.data.length === 0 ? (
            <Empty>No subscriptions yet.</Empty>
          ) : (
            <>
              <div class="table-wrap">
                <table class="stack" aria-label="Subscriptions">
                  <thead>
                    <tr>
                      <th scope="col">Endpoint</th>
                      <th scope="col">Events</th>
                      <th scope="col">State</th>
                      <th scope="col">Description</th>
                    </tr>
                  </thead>
                  <tbody>
                    {subs.data.map((sub) => (
                      <tr key={sub.id}>
                        <td data-label="Endpoint">
                          <Link to={`/webhooks/${sub.id}`}>{sub.url}</Link>
                        </td>
                        <td data-label="Events">{sub.events.join(', ')}</td>
                        <td data-label="State">
                          {sub.is_active ? 'active' : <span class="bad">disabled</span>}
                        </td>
                        <td data-label="Description">{sub.description ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager
                page={subs.current_page}
                lastPage={subs.last_page}
                total={subs.total}
                onPage={(next) => setQuery({ page: String(next) })}
              />
            </>
          )
        }
      </Async>
    </section>
  );
}
