import { useEffect, useState } from 'preact/hooks';

/** Every page lives under /app on the tenant's host; filters and pages ride in the query string. */
export const BASE = '/app';

export interface Route {
  /** The path below /app, always starting with '/'. */
  path: string;
  query: URLSearchParams;
}

function current(): Route {
  const below = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '/';
  return { path: below === '' ? '/' : below, query: new URLSearchParams(location.search) };
}

const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = to.startsWith(BASE) ? to : `${BASE}${to}`;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
}

/** Replaces the page's query (keeps the path), so a filtered, sorted page can be shared. */
export function setQuery(values: Record<string, string | undefined>): void {
  const query = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === '') query.delete(key);
    else query.set(key, value);
  }
  const text = query.toString();
  navigate(`${location.pathname}${text ? `?${text}` : ''}`, { replace: true });
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Matches `/tokens/:id` style patterns; returns the params or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(':')) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return null;
  }
  return params;
}
