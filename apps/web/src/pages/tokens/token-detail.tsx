import { useState } from 'preact/hooks';
import { api, ApiError, withQuery } from '../../api.js';
import type { RequestPage, UsageAnswer } from '../../api-types.js';
import { formatDate } from '../../components/confirm.js';
import { FieldError } from '../../components/field.js';
import { messagesFor } from '../../messages.js';
import { Link } from '../../components/link.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, ErrorState, Loading, useLoad } from '../../components/states.js';
import { setQuery, useRoute } from '../../router.js';
import { UsagePanel } from './usage-panel.js';

/** What is wrong with a status filter, in words: its first part that is no code or class. */
function statusHelp(filter: string): string {
  const bad = filter
    .split(',')
    .map((part) => part.trim())
    .find((part) => !/^[1-5](\d\d|xx)$/i.test(part));
  return `“${bad ?? filter}” is not a status: use codes such as 200 or 404, or classes such as 4xx.`;
}

/** One token: usage over 30 days and its request history (filters and page in the URL). */
export function TokenDetail(props: { id: string }) {
  const { query } = useRoute();
  const status = query.get('status') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const page = query.get('page') ?? '1';
  const usage = useLoad(
    () => api<UsageAnswer>('GET', `/api/personal-access-tokens/${props.id}/usage?days=30`),
    `usage:${props.id}`,
  );
  const requests = useLoad(
    () =>
      api<RequestPage>(
        'GET',
        withQuery(`/api/personal-access-tokens/${props.id}/requests`, {
          'filter[status]': status,
          'filter[date_from]': from,
          'filter[date_to]': to,
          page,
          per_page: 20,
        }),
      ),
    `requests:${props.id}:${status}:${from}:${to}:${page}`,
  );
  const [draft, setDraft] = useState({ status, from, to });
  const filterErrors =
    requests.error instanceof ApiError && requests.error.status === 422
      ? requests.error.fieldErrors
      : undefined;
  const statusError = filterErrors?.['filter.status'] ? statusHelp(status) : undefined;

  return (
    <section>
      <p class="crumbs">
        <Link to="/settings/developer/tokens">Personal access tokens</Link> › Token #{props.id}
      </p>
      <h1>Token usage</h1>
      {usage.error ? (
        <ErrorState error={usage.error} onRetry={usage.reload} />
      ) : usage.data ? (
        <UsagePanel usage={usage.data.data} />
      ) : (
        <Loading />
      )}
      <h2>Request history</h2>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ status: draft.status, from: draft.from, to: draft.to, page: undefined });
        }}
      >
        <div class="field">
          <label for="filter-status">Status</label>
          <input
            id="filter-status"
            name="status"
            placeholder="e.g. 200,404,5xx"
            value={draft.status}
            onInput={(event) =>
              setDraft({ ...draft, status: (event.target as HTMLInputElement).value })
            }
            aria-invalid={statusError ? true : undefined}
            aria-describedby="filter-status-hint filter-status-error"
          />
          <p class="hint" id="filter-status-hint">
            Codes such as 200 or 404, or classes such as 4xx, separated by commas.
          </p>
          <FieldError id="filter-status-error" message={statusError} />
        </div>
        <div class="field">
          <label for="filter-from">From</label>
          <input
            id="filter-from"
            type="date"
            value={draft.from}
            onInput={(event) =>
              setDraft({ ...draft, from: (event.target as HTMLInputElement).value })
            }
          />
          <FieldError
            id="filter-from-error"
            messages={messagesFor(filterErrors, 'filter.date_from')}
          />
        </div>
        <div class="field">
          <label for="filter-to">To</label>
          <input
            id="filter-to"
            type="date"
            value={draft.to}
            onInput={(event) =>
              setDraft({ ...draft, to: (event.target as HTMLInputElement).value })
            }
          />
          <FieldError id="filter-to-error" messages={messagesFor(filterErrors, 'filter.date_to')} />
        </div>
        <button type="submit">Apply filters</button>
      </form>
      {filterErrors ? null : (
        <Async state={requests}>
          {(list) =>
            list.data.length === 0 ? (
              <Empty>No requests match.</Empty>
            ) : (
              <>
                <div class="table-wrap">
                  <table class="stack" aria-label="Request history">
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Request</th>
                        <th scope="col">Status</th>
                        <th scope="col">Duration</th>
                        <th scope="col">IP</th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.data.map((row) => (
                        <tr key={row.id}>
                          <td data-label="When">{formatDate(row.requested_at)}</td>
                          <td data-label="Request">
                            <code>
                              {row.method} {row.path}
                            </code>
                          </td>
                          <td data-label="Status" class={row.status >= 400 ? 'bad' : 'good'}>
                            {row.status}
                          </td>
                          <td data-label="Duration">{row.duration_ms} ms</td>
                          <td data-label="IP">{row.ip}</td>
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
      )}
    </section>
  );
}
