import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../api.js';
import { fieldsNamed, messagesFor, plainMessage } from '../messages.js';

let counter = 0;
const nextId = () => `f${++counter}`;

/** The first message for a field in plain words, also matching nested keys (`auto_track.rmas`). */
export function errorFor(errors: FieldErrors | undefined, field: string): string | undefined {
  if (!errors) return undefined;
  if (errors[field]?.length) return plainMessage(errors[field]![0]!);
  const nested = Object.keys(errors).find((key) => key.startsWith(`${field}.`));
  return nested ? plainMessage(errors[nested]![0]!) : undefined;
}

/** A field's messages, each its own line, under one id the field is described by. */
export function FieldError(props: { id: string; message?: string; messages?: string[] }) {
  const messages = props.messages ?? (props.message ? [props.message] : []);
  if (messages.length === 0) return null;
  return (
    <div id={props.id} role="alert">
      {messages.map((message) => (
        <p class="field-error" key={message}>
          {message}
        </p>
      ))}
    </div>
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
  /** Names an item of a list field in its messages ("Line 2, “x”"). */
  item?: (index: number) => string;
}

/** A labelled input with its hint and its validation message right below it. */
export function TextField(props: InputProps) {
  const id = `${props.name}-${nextId()}`;
  const messages = messagesFor(props.errors, props.name, { label: props.label, item: props.item });
  const message = messages.length > 0;
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
      <FieldError id={`${id}-error`} messages={messages} />
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

/**
 * The form-level message: a refusal that is no field's (a 403, the 50-token limit) as the API
 * says it; for a 422 whose fields show their own messages, only a pointer to them, and the
 * messages of any field the form does not show.
 */
export function FormError(props: { error: unknown; fields?: string[] }) {
  if (!props.error) return null;
  const error = props.error as { message?: string; fieldErrors?: FieldErrors };
  const errors = error.fieldErrors ?? {};
  const placed = (key: string) =>
    (props.fields ?? []).some((field) => key === field || key.startsWith(`${field}.`));
  const unplaced = Object.entries(errors)
    .filter(([key]) => !placed(key))
    .map(([, messages]) => plainMessage(messages[0]!));
  const marked = fieldsNamed(errors).filter(placed).length;
  const summary =
    Object.keys(errors).length === 0
      ? (error.message ?? 'Something went wrong.')
      : marked === 0
        ? 'Please correct the following.'
        : marked === 1
          ? 'Check the field marked above.'
          : `Check the ${marked} fields marked above.`;
  return (
    <div class="form-error" role="alert">
      <p>{summary}</p>
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
