import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError, withQuery } from '../../api.js';
import type { LinksMetaPage } from '../../api-types.js';
import { FieldError } from '../../components/field.js';
import { messagesFor } from '../../messages.js';
import { Pager } from '../../components/pager.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { ExportCsv } from '../../components/export-csv.js';
import { setQuery, useRoute } from '../../router.js';
import { apiDateToInput, inputDateToApi } from '../../dates.js';

export interface Filter {
  /** The API's query parameter, used as is in the page URL too (so the URL is shareable). */
  param: string;
  label: string;
  /** `flag`: a checkbox, `true` when ticked, absent otherwise. */
  type: 'text' | 'date' | 'choices' | 'flag';
  /** A plain string is its own label (underscores shown as spaces). */
  choices?: readonly Choice[];
}

/** A choice shown by its label (a carrier's or a person's name) with the API's value behind it. */
export type Choice = string | { value: string; label: string };

const optionOf = (choice: Choice) =>
  typeof choice === 'string' ? { value: choice, label: choice.replace(/_/g, ' ') } : choice;

/**
 * The filter's options: its choices, then any value of a shared link the choices do not name
 * (still shown and removable, by its value).
 */
function optionsOf(filter: Filter, value: string) {
  const options = (filter.choices ?? []).map(optionOf);
  const known = new Set(options.map((option) => option.value));
  const unknown = value
    .split(',')
    .filter((item) => item !== '' && !known.has(item))
    .map((item) => ({ value: item, label: item }));
  return [...options, ...unknown];
}

/** Page sizes a person may pick (the API's default is 10; at most 100 is advised). */
const PAGE_SIZES = [10, 25, 50, 100] as const;

/** A filter's value as a person reads it: choices by their labels. */
const shown = (filter: Filter, value: string) =>
  filter.type === 'choices'
    ? (() => {
        const labels = new Map(optionsOf(filter, value).map((o) => [o.value, o.label]));
        return value
          .split(',')
          .map((item) => labels.get(item) ?? item)
          .join(', ');
      })()
    : filter.type === 'flag'
      ? 'yes'
      : value;

const mapUndefined = (values: Record<string, string>) =>
  Object.fromEntries(Object.keys(values).map((key) => [key, undefined]));

export interface Column<T> {
  label: string;
  render: (row: T) => ComponentChildren;
  /** The cell as plain text for the CSV export; a list offers the export when its columns do. */
  text?: (row: T) => string | number | null | undefined;
}

/**
 * A links/meta list of the API with its filters, sort and page kept in the page's URL:
 * the URL's query is the API's query, so a shared link shows the same rows.
 */
export function ApiList<Row extends { id: number }>(props: {
  title: string;
  path: string;
  filters: Filter[];
  sorts: readonly string[];
  defaultSort: string;
  columns: Column<Row>[];
  empty: string;
  /** Changed by the page to read the rows again (an action over them finished). */
  version?: number;
}) {
  const { query } = useRoute();
  const params: Record<string, string> = {};
  for (const filter of props.filters) params[filter.param] = query.get(filter.param) ?? '';
  const sort = query.get('sort') ?? '';
  const page = query.get('page') ?? '';
  const key = `${props.path}?${query.toString()}#${props.version ?? 0}`;
  const rows = useLoad(
    () =>
      api<LinksMetaPage<Row>>(
        'GET',
        withQuery(props.path, { ...params, sort, page, per_page: query.get('per_page') ?? '' }),
      ),
    key,
  );
  const [draft, setDraft] = useState(params);
  const filtered = Object.values(params).some((value) => value !== '');
  const active = props.filters.filter((filter) => params[filter.param]);
  const errors =
    rows.error instanceof ApiError && rows.error.status === 422
      ? rows.error.fieldErrors
      : undefined;
  const exportable = props.columns.flatMap((column) =>
    column.text ? [{ label: column.label, text: column.text }] : [],
  );
  const fieldErrors = (param: string) => messagesFor(errors, param.replace(/\[(\w+)\]/, '.$1'));

  return (
    <section aria-label={props.title}>
      <h2>{props.title}</h2>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ ...draft, page: undefined });
        }}
      >
        {props.filters.map((filter) => {
          const id = `flt-${filter.param.replace(/\W/g, '-')}`;
          const value = draft[filter.param] ?? '';
          const set = (next: string) => setDraft({ ...draft, [filter.param]: next });
          return (
            <div class="field" key={filter.param}>
              <label for={id}>{filter.label}</label>
              {filter.type === 'flag' ? (
                <input
                  id={id}
                  type="checkbox"
                  checked={value === 'true'}
                  onChange={(event) =>
                    set((event.target as HTMLInputElement).checked ? 'true' : '')
                  }
                />
              ) : filter.type === 'date' ? (
                <input
                  id={id}
                  type="date"
                  value={apiDateToInput(value)}
                  onInput={(event) => set(inputDateToApi((event.target as HTMLInputElement).value))}
                />
              ) : filter.type === 'choices' ? (
                <select
                  id={id}
                  multiple
                  size={Math.max(2, Math.min(4, optionsOf(filter, value).length))}
                  onChange={(event) =>
                    set(
                      [...(event.target as HTMLSelectElement).selectedOptions]
                        .map((option) => option.value)
                        .join(','),
                    )
                  }
                >
                  {optionsOf(filter, value).map((option) => (
                    <option
                      key={option.value}
                      value={option.value}
                      selected={value.split(',').includes(option.value)}
                    >
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={id}
                  value={value}
                  onInput={(event) => set((event.target as HTMLInputElement).value)}
                />
              )}
              <FieldError id={`${id}-error`} messages={fieldErrors(filter.param)} />
            </div>
          );
        })}
        <div class="field">
          <label for="flt-sort">Sort</label>
          <select
            id="flt-sort"
            value={sort || props.defaultSort}
            onChange={(event) =>
              setQuery({ sort: (event.target as HTMLSelectElement).value, page: undefined })
            }
          >
            {props.sorts.flatMap((field) => [
              <option key={`-${field}`} value={`-${field}`}>
                {field.replace(/_/g, ' ')} (newest first)
              </option>,
              <option key={field} value={field}>
                {field.replace(/_/g, ' ')} (oldest first)
              </option>,
            ])}
          </select>
          <FieldError id="flt-sort-error" messages={messagesFor(errors, 'sort')} />
        </div>
        <div class="field">
          <label for="flt-per-page">Per page</label>
          <select
            id="flt-per-page"
            value={query.get('per_page') ?? '10'}
            onChange={(event) =>
              setQuery({ per_page: (event.target as HTMLSelectElement).value, page: undefined })
            }
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Apply filters</button>
        {/* Shipments move while the page is open: read the same page again. */}
        <button type="button" onClick={rows.reload} disabled={rows.loading}>
          Refresh
        </button>
      </form>
      {exportable.length > 0 && !errors && (
        <ExportCsv<Row>
          title={props.title}
          path={props.path}
          query={{ ...params, sort }}
          columns={exportable}
        />
      )}
      {active.length > 0 && (
        <ul class="chips" aria-label="Active filters">
          {active.map((filter) => (
            <li key={filter.param}>
              <span id={`chip-${filter.param.replace(/\W/g, '-')}`}>
                {filter.label}: {shown(filter, params[filter.param]!)}
              </span>
              <button
                type="button"
                aria-label="Remove filter"
                aria-describedby={`chip-${filter.param.replace(/\W/g, '-')}`}
                onClick={() => {
                  setDraft({ ...draft, [filter.param]: '' });
                  setQuery({ [filter.param]: undefined, page: undefined });
                }}
              >
                ×
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              onClick={() => {
                const none = Object.fromEntries(props.filters.map((f) => [f.param, '']));
                setDraft(none);
                setQuery({ ...mapUndefined(none), page: undefined });
              }}
            >
              Clear all
            </button>
          </li>
        </ul>
      )}
      {errors ? null : (
        <Async state={rows} lines={8}>
          {(list) =>
            list.data.length === 0 ? (
              <Empty>{filtered ? 'Nothing matches these filters.' : props.empty}</Empty>
            ) : (
              <>
                <div class="table-wrap">
                  <table class="stack" aria-label={props.title}>
                    <thead>
                      <tr>
                        {props.columns.map((column) => (
                          <th scope="col" key={column.label}>
                            {column.label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {list.data.map((row) => (
                        <tr key={row.id}>
                          {props.columns.map((column) => (
                            <td key={column.label} data-label={column.label}>
                              {column.render(row)}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <Pager
                  page={list.meta.current_page}
                  lastPage={list.meta.last_page}
                  total={list.meta.total}
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
