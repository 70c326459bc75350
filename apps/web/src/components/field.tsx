import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../api.js';

let counter = 0;
const nextId = () => `f${++counter}`;

/** The first message for a field, also matching nested keys (`ip_allowlist.0`). */
export function errorFor(errors: FieldErrors | undefined, field: string): string | undefined {
  if (!errors) return undefined;
  if (errors[field]?.length) return errors[field]![0];
  const nested = Object.keys(errors).find((key) => key.startsWith(`${field}.`));
  return nested ? errors[nested]![0] : undefined;
}

export function FieldError(props: { id: string; message?: string }) {
  if (!props.message) return null;
  return (
    <p class="field-error" id={props.id} role="alert">
      {props.message}
    </p>
  );
}

interface InputProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  errors?: FieldErrors;
  type?: string;
  hint?: ComponentChildren;
  required?: boolean;
  autoComplete?: string;
  multiline?: boolean;
  inputMode?: 'numeric' | 'text';
}

/** A labelled input with its hint and its validation message right below it. */
export function TextField(props: InputProps) {
  const id = `${props.name}-${nextId()}`;
  const message = errorFor(props.errors, props.name);
  const describedBy = [props.hint ? `${id}-hint` : '', message ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onInput: (event: Event) => props.onInput((event.target as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={3} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
        />
      )}
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={message} />
    </div>
  );
}

export function Checkbox(props: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
}) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={props.name}
        checked={props.checked}
        onChange={(event) => props.onChange((event.target as HTMLInputElement).checked)}
      />
      {props.label}
    </label>
  );
}

/** The form-level message (non-field errors such as 403s and the 50-token limit). */
export function FormError(props: { error: unknown; fields?: string[] }) {
  if (!props.error) return null;
  const error = props.error as { message?: string; fieldErrors?: FieldErrors };
  const errors = error.fieldErrors ?? {};
  const unplaced = Object.entries(errors)
    .filter(
      ([key]) =>
        !(props.fields ?? []).some((field) => key === field || key.startsWith(`${field}.`)),
    )
    .map(([, messages]) => messages[0]);
  return (
    <div class="form-error" role="alert">
      <p>{error.message ?? 'Something went wrong.'}</p>
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
