import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { ConnectAnswer, KeyTestAnswer } from '../../api-types.js';
import { FormError, TextField } from '../../components/field.js';
import { PREFIX } from './instance.js';

/** Test a provider key (nothing saved) and connect; an instance made meanwhile is opened. */
export function Connect(props: { onConnected: () => void }) {
  const [name, setName] = useState('Parcel tracking');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [tested, setTested] = useState<string | null>(null);
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
      await api<ConnectAnswer>('POST', `${PREFIX}/instances`, { name, api_key: apiKey });
      props.onConnected();
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
        <div class="card" role="status">
          <p>Someone on your team connected parcel tracking a moment ago.</p>
          <button type="button" class="primary" onClick={props.onConnected}>
            Open the connection
          </button>
        </div>
      )}
    </>
  );
}
