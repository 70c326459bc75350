import type { FieldErrors } from '../../api.js';
import type { Instance } from '../../api-types.js';
import { Checkbox, TextField } from '../../components/field.js';

export type ShipmentWatch = Instance['shipment_watch'];

/** The form's own copy: numbers as typed, so the API's message names what was wrong. */
export interface WatchDraft {
  stalled_after_hours: string;
  carriers: Array<{ carrier_code: string; hours: string }>;
  stalled_alert: boolean;
  late_alert: boolean;
}

export const draftOf = (watch: ShipmentWatch): WatchDraft => ({
  stalled_after_hours: String(watch.stalled_after_hours),
  carriers: watch.carrier_stalled_after_hours.map((entry) => ({
    carrier_code: String(entry.carrier_code),
    hours: String(entry.hours),
  })),
  stalled_alert: watch.stalled_alert,
  late_alert: watch.late_alert,
});

const numberOrText = (typed: string) => (/^\d+$/.test(typed.trim()) ? Number(typed) : typed);

/** The PATCH body's `shipment_watch`: only what differs from the stored settings, or nothing. */
export function watchPatch(draft: WatchDraft, stored: ShipmentWatch) {
  const patch: Record<string, unknown> = {};
  if (draft.stalled_after_hours !== String(stored.stalled_after_hours))
    patch.stalled_after_hours = numberOrText(draft.stalled_after_hours);
  const carriers = draft.carriers.map((entry) => ({
    carrier_code: numberOrText(entry.carrier_code),
    hours: numberOrText(entry.hours),
  }));
  if (JSON.stringify(carriers) !== JSON.stringify(stored.carrier_stalled_after_hours))
    patch.carrier_stalled_after_hours = carriers;
  if (draft.stalled_alert !== stored.stalled_alert) patch.stalled_alert = draft.stalled_alert;
  if (draft.late_alert !== stored.late_alert) patch.late_alert = draft.late_alert;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

const FIELD = 'shipment_watch';
const CARRIERS = `${FIELD}.carrier_stalled_after_hours`;

/** Every error key this part of the form shows against a field (the list's own, e.g. too long, it does not). */
export const watchFieldNames = (draft: WatchDraft) => [
  `${FIELD}.stalled_after_hours`,
  ...draft.carriers.flatMap((_, index) => [
    `${CARRIERS}.${index}.carrier_code`,
    `${CARRIERS}.${index}.hours`,
  ]),
];

/**
 * Stalled and late shipments: when a quiet shipment counts as stalled, per carrier where a carrier
 * is slower or faster than most, and whether each raises an alert. The carriers the shipments were
 * assigned are offered by name.
 */
export function ShipmentWatchFields(props: {
  draft: WatchDraft;
  onChange: (draft: WatchDraft) => void;
  carriersSeen: Instance['carriers_seen'];
  errors?: FieldErrors;
}) {
  const { draft, onChange, errors } = props;
  const setCarrier = (index: number, entry: Partial<WatchDraft['carriers'][number]>) =>
    onChange({
      ...draft,
      carriers: draft.carriers.map((old, at) => (at === index ? { ...old, ...entry } : old)),
    });
  return (
    <fieldset>
      <legend>Stalled and late shipments</legend>
      <TextField
        label="Stalled after (hours without a carrier update)"
        name={`${FIELD}.stalled_after_hours`}
        inputMode="numeric"
        value={draft.stalled_after_hours}
        onInput={(value) => onChange({ ...draft, stalled_after_hours: value })}
        errors={errors}
        hint="1–720. A shipment in transit this long without a new checkpoint shows as stalled."
      />
      <Checkbox
        label="Alert once when a shipment stalls"
        name={`${FIELD}.stalled_alert`}
        checked={draft.stalled_alert}
        onChange={(on) => onChange({ ...draft, stalled_alert: on })}
      />
      <Checkbox
        label="Alert once when a shipment is past its estimated delivery"
        name={`${FIELD}.late_alert`}
        checked={draft.late_alert}
        onChange={(on) => onChange({ ...draft, late_alert: on })}
      />
      <div class="carrier-thresholds" role="group" aria-label="Per-carrier stalled thresholds">
        <p class="hint">
          Carriers slower or faster than most can have their own threshold. Codes as in the
          trackings list's carrier filter
          {props.carriersSeen.length > 0 &&
            `; seen so far: ${props.carriersSeen
              .map((seen) => `${seen.carrier_name ?? 'carrier'} ${seen.carrier_code}`)
              .join(', ')}`}
          .
        </p>
        {draft.carriers.map((entry, index) => (
          <div class="carrier-threshold" key={index}>
            <TextField
              label={`Carrier ${index + 1} (code)`}
              name={`${CARRIERS}.${index}.carrier_code`}
              inputMode="numeric"
              value={entry.carrier_code}
              onInput={(value) => setCarrier(index, { carrier_code: value })}
              errors={errors}
              hint={
                props.carriersSeen.find((seen) => String(seen.carrier_code) === entry.carrier_code)
                  ?.carrier_name ?? undefined
              }
            />
            <TextField
              label={`Carrier ${index + 1} stalled after (hours)`}
              name={`${CARRIERS}.${index}.hours`}
              inputMode="numeric"
              value={entry.hours}
              onInput={(value) => setCarrier(index, { hours: value })}
              errors={errors}
            />
            <button
              type="button"
              onClick={() =>
                onChange({ ...draft, carriers: draft.carriers.filter((_, at) => at !== index) })
              }
            >
              Remove carrier {index + 1}
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() =>
            onChange({
              ...draft,
              carriers: [
                ...draft.carriers,
                {
                  carrier_code: String(
                    props.carriersSeen.find(
                      (seen) =>
                        !draft.carriers.some(
                          (entry) => entry.carrier_code === String(seen.carrier_code),
                        ),
                    )?.carrier_code ?? '',
                  ),
                  hours: draft.stalled_after_hours,
                },
              ],
            })
          }
        >
          Add a carrier threshold
        </button>
      </div>
    </fieldset>
  );
}
