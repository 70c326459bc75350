import type { FieldErrors } from '../../api.js';
import { api } from '../../api.js';
import type { ChannelScope, ChannelsAnswer } from '../../api-types.js';
import { errorFor, FieldError } from '../../components/field.js';
import { ErrorState, Loading, useLoad } from '../../components/states.js';
import { PREFIX } from './instance.js';

type Choice = 'inherit' | 'on' | 'off';
const choiceOf = (value: boolean | undefined): Choice =>
  value === undefined ? 'inherit' : value ? 'on' : 'off';
const valueOf = (choice: Choice) => (choice === 'inherit' ? undefined : choice === 'on');

function ChoiceSelect(props: { label: string; value: Choice; onChange: (choice: Choice) => void }) {
  return (
    <label class="inline">
      {props.label}{' '}
      <select
        value={props.value}
        onChange={(event) => props.onChange((event.target as HTMLSelectElement).value as Choice)}
      >
        <option value="inherit">inherit</option>
        <option value="on">track</option>
        <option value="off">do not track</option>
      </select>
    </label>
  );
}

/** Sales-order channel scoping as a tree: default all/none, per channel, per sub-channel. */
export function ChannelScopeEditor(props: {
  instanceId: number;
  scope: ChannelScope;
  onChange: (scope: ChannelScope) => void;
  errors?: FieldErrors;
}) {
  const channels = useLoad(
    () => api<ChannelsAnswer>('GET', `${PREFIX}/instances/${props.instanceId}/trackable-channels`),
    `channels:${props.instanceId}`,
  );
  const { scope } = props;
  const setChannel = (
    id: number,
    entry: { enabled?: boolean; sub_channels?: Record<string, boolean> },
  ) => {
    const next = { ...scope.channels };
    const clean = {
      ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
      ...(entry.sub_channels && Object.keys(entry.sub_channels).length
        ? { sub_channels: entry.sub_channels }
        : {}),
    };
    if (Object.keys(clean).length) next[id] = clean;
    else delete next[id];
    props.onChange({ ...scope, channels: next });
  };
  return (
    <fieldset>
      <legend>Sales channels (sales order fulfillments only)</legend>
      <label class="inline">
        Default{' '}
        <select
          name="auto_track_channels.default"
          value={scope.default}
          onChange={(event) =>
            props.onChange({
              ...scope,
              default: (event.target as HTMLSelectElement).value,
            })
          }
        >
          <option value="all">all: track unless disabled</option>
          <option value="none">none: track only what is enabled</option>
        </select>
      </label>
      <FieldError id="scope-error" message={errorFor(props.errors, 'auto_track_channels')} />
      {channels.error ? (
        <ErrorState error={channels.error} onRetry={channels.reload} />
      ) : !channels.data ? (
        <Loading label="Loading channels…" />
      ) : channels.data.data.length === 0 ? (
        <p class="state empty">No sales channels connected.</p>
      ) : (
        <ul class="tree">
          {channels.data.data.map((channel) => {
            const entry = scope.channels?.[channel.id] ?? {};
            return (
              <li key={channel.id}>
                <ChoiceSelect
                  label={`${channel.name} (${channel.platform})`}
                  value={choiceOf(entry.enabled)}
                  onChange={(choice) =>
                    setChannel(channel.id, { ...entry, enabled: valueOf(choice) })
                  }
                />
                {channel.sub_channels.length > 0 && (
                  <ul>
                    {channel.sub_channels.map((sub) => (
                      <li key={sub.id}>
                        <ChoiceSelect
                          label={sub.name}
                          value={choiceOf(entry.sub_channels?.[sub.id])}
                          onChange={(choice) => {
                            const subs = { ...(entry.sub_channels ?? {}) };
                            const value = valueOf(choice);
                            if (value === undefined) delete subs[sub.id];
                            else subs[sub.id] = value;
                            setChannel(channel.id, { ...entry, sub_channels: subs });
                          }}
                        />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
