import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api.js';
import type { Instance } from '../../api-types.js';
import { ConfirmButton } from '../../components/confirm.js';
import { Checkbox, FormError, TextField } from '../../components/field.js';
import { AUTO_TRACK_KEYS, SIDE_EFFECT_KEYS } from '@inventory/rules';
import { AUTO_TRACK_LABELS, PREFIX, SIDE_EFFECT_LABELS } from './instance.js';
import { ChannelScopeEditor } from './channel-scope.js';
import {
  draftOf,
  ShipmentWatchFields,
  watchFieldNames,
  watchPatch,
} from './shipment-watch-fields.js';

/** PATCH with only what changed; disconnect with a confirmation. */
export function Settings(props: {
  instance: Instance;
  onSaved: () => void;
  onDisconnected: () => void;
}) {
  const { instance } = props;
  const [name, setName] = useState(instance.name);
  const [apiKey, setApiKey] = useState('');
  const [sync, setSync] = useState(instance.is_automatic_sync_enabled);
  const [autoTrack, setAutoTrack] = useState({ ...instance.auto_track });
  const [sideEffects, setSideEffects] = useState({ ...instance.side_effects });
  const [threshold, setThreshold] = useState(String(instance.quota_alert_threshold));
  const [forecastDays, setForecastDays] = useState(String(instance.quota_forecast_alert_days));
  const [scope, setScope] = useState(instance.auto_track_channels);
  const [watch, setWatch] = useState(() => draftOf(instance.shipment_watch));
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    const body: Record<string, unknown> = {};
    if (name !== instance.name) body.name = name;
    if (apiKey) body.api_key = apiKey;
    if (sync !== instance.is_automatic_sync_enabled) body.is_automatic_sync_enabled = sync;
    if (JSON.stringify(autoTrack) !== JSON.stringify(instance.auto_track))
      body.auto_track = autoTrack;
    if (JSON.stringify(sideEffects) !== JSON.stringify(instance.side_effects))
      body.side_effects = sideEffects;
    if (threshold !== String(instance.quota_alert_threshold))
      body.quota_alert_threshold = /^\d+$/.test(threshold) ? Number(threshold) : threshold;
    if (forecastDays !== String(instance.quota_forecast_alert_days))
      body.quota_forecast_alert_days = /^\d+$/.test(forecastDays)
        ? Number(forecastDays)
        : forecastDays;
    if (JSON.stringify(scope) !== JSON.stringify(instance.auto_track_channels))
      body.auto_track_channels = scope;
    const watchChanges = watchPatch(watch, instance.shipment_watch);
    if (watchChanges) body.shipment_watch = watchChanges;
    try {
      await api('PATCH', `${PREFIX}/instances/${instance.id}`, body);
      setApiKey('');
      setSaved(true);
      props.onSaved();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, null));
    }
  };
  const errors = error?.fieldErrors;

  return (
    <>
      <form class="card" onSubmit={save} noValidate aria-label="Parcel tracking settings">
        <h2>Settings</h2>
        <TextField label="Name" name="name" value={name} onInput={setName} errors={errors} />
        <TextField
          label="Rotate API key"
          name="api_key"
          type="password"
          autoComplete="off"
          value={apiKey}
          onInput={setApiKey}
          errors={errors}
          hint="Leave empty to keep the current key."
        />
        <TextField
          label="Quota alert threshold (%)"
          name="quota_alert_threshold"
          inputMode="numeric"
          value={threshold}
          onInput={setThreshold}
          errors={errors}
          hint="1–99. A second alert always fires at 100%."
        />
        <TextField
          label="Quota forecast alert (days left)"
          name="quota_forecast_alert_days"
          inputMode="numeric"
          value={forecastDays}
          onInput={setForecastDays}
          errors={errors}
          hint="0–365. Alerts when the quota is foreseen to run out within fewer days; 0 turns it off."
        />
        <fieldset>
          <legend>Kill switch</legend>
          <Checkbox
            label="Automatic sync enabled"
            checked={sync}
            onChange={setSync}
            name="is_automatic_sync_enabled"
          />
        </fieldset>
        <fieldset>
          <legend>Track automatically</legend>
          {AUTO_TRACK_KEYS.map((key) => (
            <Checkbox
              key={key}
              label={AUTO_TRACK_LABELS[key]}
              checked={autoTrack[key] ?? true}
              onChange={(on) => setAutoTrack({ ...autoTrack, [key]: on })}
            />
          ))}
        </fieldset>
        <fieldset>
          <legend>Side effects</legend>
          {SIDE_EFFECT_KEYS.map((key) => (
            <Checkbox
              key={key}
              label={SIDE_EFFECT_LABELS[key]}
              checked={sideEffects[key] ?? true}
              onChange={(on) => setSideEffects({ ...sideEffects, [key]: on })}
            />
          ))}
        </fieldset>
        <ShipmentWatchFields
          draft={watch}
          onChange={setWatch}
          carriersSeen={instance.carriers_seen}
          errors={errors}
        />
        <ChannelScopeEditor
          instanceId={instance.id}
          scope={scope}
          onChange={setScope}
          errors={errors}
        />
        {error && (
          <FormError
            error={error}
            fields={[
              'name',
              'api_key',
              'quota_alert_threshold',
              'auto_track_channels',
              ...watchFieldNames(watch),
              'quota_forecast_alert_days',
            ]}
          />
        )}
        {saved && (
          <p class="notice" role="status">
            Settings saved.
          </p>
        )}
        <button type="submit" class="primary">
          Save settings
        </button>
      </form>
      <section class="card danger-zone">
        <h2>Disconnect</h2>
        <p>Stops tracking every shipment with the provider and deletes this connection.</p>
        <ConfirmButton
          label="Disconnect"
          danger
          question="Disconnect parcel tracking?"
          confirmLabel="Yes, disconnect"
          onConfirm={async () => {
            await api('DELETE', `${PREFIX}/instances/${instance.id}`);
            props.onDisconnected();
          }}
        />
      </section>
    </>
  );
}
