import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, onSignedOut, setCsrfToken } from './api.js';
import { Layout } from './layout.js';
import { SignIn } from './pages/sign-in.js';
import { ErrorState, Loading } from './components/states.js';
import type { CurrentUser, UserAnswer } from './api-types.js';
import { SessionContext } from './session.js';
import './styles.css';
import './tables.css';
import './charts.css';

function App() {
  const [user, setUser] = useState<CurrentUser | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  const refreshUser = async () => {
    try {
      setError(null);
      setUser((await api<UserAnswer>('GET', '/api/user')).data);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 401) setUser(null);
      else setError(caught);
    }
  };
  useEffect(() => {
    void refreshUser();
    return onSignedOut(() => setUser(null));
  }, []);

  if (error) return <ErrorState error={error} onRetry={refreshUser} />;
  if (user === undefined) return <Loading />;
  if (user === null) return <SignIn onSignedIn={setUser} />;
  const signOut = async () => {
    await api('POST', '/auth/logout').catch(() => undefined);
    setCsrfToken(null);
    setUser(null);
  };
  return (
    <SessionContext.Provider value={{ user, signOut, refreshUser }}>
      <Layout />
    </SessionContext.Provider>
  );
}

render(<App />, document.getElementById('root')!);
