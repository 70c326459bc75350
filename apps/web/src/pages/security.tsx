import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import type { RecoveryCodesAnswer, TwoFactorSetupAnswer } from '../api-types.js';
import { FormError, TextField } from '../components/field.js';
import { QrCode } from '../components/qr-code.js';
import { useSession } from '../session.js';

/** Two-factor authentication: enrol (secret + otpauth URL, recovery codes once) and disable. */
export function SecurityPage() {
  const { user, refreshUser } = useSession();
  const [enrolment, setEnrolment] = useState<TwoFactorSetupAnswer['data'] | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);

  const run = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    }
  };

  return (
    <section>
      <p class="crumbs">Settings</p>
      <h1>Security</h1>
      <h2>Two-factor authentication</h2>
      {recovery && (
        <div class="secret" role="region" aria-label="Recovery codes">
          <p class="warning">
            <strong>Save these recovery codes now; they are shown only once.</strong> Each works
            once if you lose your device.
          </p>
          <ul class="codes">
            {recovery.map((item) => (
              <li key={item}>
                <code>{item}</code>
              </li>
            ))}
          </ul>
          <button type="button" onClick={() => setRecovery(null)}>
            I have saved them
          </button>
        </div>
      )}
      {user.two_factor_enabled ? (
        <form
          class="card"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () => {
              await api('DELETE', '/api/user/two-factor', { password, code });
              setPassword('');
              setCode('');
              await refreshUser();
            });
          }}
        >
          <p>Two-factor authentication is on.</p>
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onInput={setPassword}
            errors={error?.fieldErrors}
          />
          <TextField
            label="Current code"
            name="code"
            autoComplete="one-time-code"
            value={code}
            onInput={setCode}
            errors={error?.fieldErrors}
          />
          {error && error.status !== 422 && <FormError error={error} />}
          <button type="submit" class="danger">
            Turn off two-factor
          </button>
        </form>
      ) : enrolment ? (
        <form
          class="card"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void run(async () => {
              const answer = await api<RecoveryCodesAnswer>(
                'POST',
                '/api/user/two-factor/confirm',
                { code },
              );
              setRecovery(answer.data.recovery_codes);
              setEnrolment(null);
              setCode('');
              await refreshUser();
            });
          }}
        >
          <p>Scan the code with your authenticator app, or enter the setup key:</p>
          <QrCode value={enrolment.otpauth_url} label="QR code of the two-factor setup link" />
          <p>
            Setup key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <p>
            <a href={enrolment.otpauth_url}>Open in authenticator app</a>
          </p>
          <TextField
            label="Code from the app"
            name="code"
            autoComplete="one-time-code"
            value={code}
            onInput={setCode}
            errors={error?.fieldErrors}
          />
          {error && error.status !== 422 && <FormError error={error} />}
          <button type="submit" class="primary">
            Confirm and turn on
          </button>
        </form>
      ) : (
        <div class="card">
          <p>Two-factor authentication is off.</p>
          {error && <FormError error={error} />}
          <button
            type="button"
            class="primary"
            onClick={() =>
              void run(async () => {
                setEnrolment(
                  (await api<TwoFactorSetupAnswer>('POST', '/api/user/two-factor')).data,
                );
              })
            }
          >
            Set up two-factor
          </button>
        </div>
      )}
    </section>
  );
}
