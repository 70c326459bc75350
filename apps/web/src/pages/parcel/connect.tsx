import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { ConnectAnswer, KeyTestAnswer } from '../../api-types.js';
import { FormError, TextField } from '../../components/field.js';
import { PREFIX, rememberInstance } from './instance.js';

/** Test a provider key (nothing saved), connect, or open an existing instance by id. */
export function Connect(props: { onConnected: (id: number) => void }) {
  const [name, setName] = useState('Parcel tracking');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const [existingId, setExistingId] = useState('');
  const [busy, setBusy] = useState(false);

  const attempt = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setTested(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    } finally {
      setBusy(false);
    }
  };
  const testKey = () =>
    attempt(async () => {
      const answer = await api<KeyTestAnswer>('POST', `${PREFIX}/test`, { api_key: apiKey });
      const quota = answer.data.quota;
      setTested(`${answer.message} Quota: ${quota?.used ?? 0} of ${quota?.total ?? 0} used.`);
    });
  const connect = (event: Event) => {
    event.preventDefault();
    void attempt(async () => {
      const answer = await api<ConnectAnswer>('POST', `${PREFIX}/instances`, {
        name,
        api_key: apiKey,
      });
      rememberInstance(answer.data.id);
      props.onConnected(answer.data.id);
    });
  };
  const errors = error?.fieldErrors;
  const alreadyConnected = error?.status === 422 && /already exists/i.test(error.message);

  return (
    <>
      <form class="card" onSubmit={connect} noValidate aria-label="Connect parcel tracking">
        <h2>Connect your parcel-tracking provider</h2>
        <TextField
          label="Name"
          name="name"
          value={name}
          onInput={setName}
          errors={errors}
          required
        />
        <TextField
          label="Provider API key"
          name="api_key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onInput={setApiKey}
          errors={errors}
          required
          hint="8–255 characters, from the provider's dashboard."
        />
        {tested && (
          <p class="notice" role="status">
            {tested}
          </p>
        )}
        {error && !errors?.api_key && !errors?.name && (
          <FormError error={error} fields={['name', 'api_key']} />
        )}
        <div class="row">
          <button type="button" onClick={testKey} disabled={busy}>
            Test key
          </button>
          <button type="submit" class="primary" disabled={busy}>
            Connect
          </button>
        </div>
      </form>
      {alreadyConnected && (
        <form
          class="card"
          onSubmit={(event) => {
            event.preventDefault();
            if (/^\d+$/.test(existingId)) {
              rememberInstance(existingId);
              props.onConnected(Number(existingId));
            }
          }}
        >
          <h2>Open the existing connection</h2>
          <TextField
            label="Instance id"
            name="instance_id"
            inputMode="numeric"
            value={existingId}
            onInput={setExistingId}
            hint="Shown on the dashboard of whoever connected it."
          />
          <button type="submit">Open</button>
        </form>
      )}
    </>
  );
}
