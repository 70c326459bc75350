import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken, type FieldErrors } from '../api.js';
import { FormError, TextField } from '../components/field.js';
import type { CurrentUser, LoginAnswer } from '../api-types.js';

/**
 * Email and password; when the account has two-factor on, the API answers 422 on
 * `two_factor_code` and the form asks for the code (or a recovery code).
 */
export function SignIn(props: { onSignedIn: (user: CurrentUser) => void }) {
  useEffect(() => {
    document.title = 'Sign in · Inventory';
  }, []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const errors: FieldErrors | undefined = error?.fieldErrors;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api<LoginAnswer>('POST', '/auth/login', {
        email,
        password,
        ...(needsCode && code ? { two_factor_code: code } : {}),
      });
      setCsrfToken(answer.csrf_token);
      props.onSignedIn(answer.data);
    } catch (caught) {
      const apiError = caught instanceof ApiError ? caught : new ApiError(0, null);
      if (apiError.fieldErrors.two_factor_code) setNeedsCode(true);
      // The first "code required" answer is a prompt, not a mistake.
      setError(needsCode || !apiError.fieldErrors.two_factor_code ? apiError : null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onInput={setEmail}
          errors={errors}
          required
        />
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
        {needsCode && (
          <TextField
            label="Two-factor code"
            name="two_factor_code"
            autoComplete="one-time-code"
            inputMode="numeric"
            hint="The 6-digit code from your authenticator app, or a recovery code."
            value={code}
            onInput={setCode}
            errors={errors}
            required
          />
        )}
        {error && error.status !== 422 && <FormError error={error} />}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
