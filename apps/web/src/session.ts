import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CurrentUser } from './api-types.js';

export interface SessionValue {
  user: CurrentUser;
  signOut: () => Promise<void>;
  refreshUser: () => Promise<void>;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in layout');
  return value;
}

export const can = (user: CurrentUser, permission: string) =>
  user.is_owner || user.permissions.includes(permission);
