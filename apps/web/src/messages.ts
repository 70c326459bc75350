/**
 * The API's validation messages name fields as the API does (`The ip_allowlist.1 field must be
 * a valid IPv4 or IPv6 CIDR range.`). Shown against the field they concern, the name is noise:
 * these rewrite a message into words for that place, and name the line of a list field.
 */
const REQUIRED = /^The [\w. ]+? field is required\.$/;
const FIELD_RULE = /^The [\w. ]+? field (must|may|has|is|format) (.*)$/;
const SELECTED = /^The selected [\w. ]+? is invalid(?:: (.*?))?\.?$/;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** One message in plain words; `label` is the field's visible label ("Name is required."). */
export function plainMessage(message: string, label?: string): string {
  if (REQUIRED.test(message)) return label ? `${label} is required.` : 'This field is required.';
  const rule = FIELD_RULE.exec(message);
  if (rule) return capitalise(`${rule[1]} ${rule[2]}`);
  const selected = SELECTED.exec(message);
  if (selected) {
    const detail = selected[1];
    if (!detail) return 'Not one of the choices.';
    return / is /.test(detail) ? `${capitalise(detail)}.` : `${detail} is not one of the choices.`;
  }
  return message;
}

/** A field's errors keyed as the API keys them: the field itself and its items (`field.2`). */
export type ErrorMap = Partial<Record<string, string[]>>;

/**
 * Every message for `field` and its items, in plain words. An item's message starts with what
 * `item(index)` names it ("Line 2, “10.0.0.0/33”"), else "Item N".
 */
export function messagesFor(
  errors: ErrorMap | undefined,
  field: string,
  options: { label?: string; item?: (index: number) => string } = {},
): string[] {
  if (!errors) return [];
  const label = options.label?.replace(/\s*\(optional\)$/i, '');
  const out = (errors[field] ?? []).map((message) => plainMessage(message, label));
  for (const key of Object.keys(errors)) {
    const index = key.startsWith(`${field}.`) ? Number(key.slice(field.length + 1)) : NaN;
    if (!Number.isInteger(index)) continue;
    const name = options.item ? options.item(index) : `Item ${index + 1}`;
    for (const message of errors[key] ?? [])
      out.push(`${name}: ${lowerFirst(plainMessage(message))}`);
  }
  return out;
}

/** The fields (not their items) a 422 names: `ip_allowlist.0` and `.1` are one field. */
export function fieldsNamed(errors: ErrorMap): string[] {
  return [...new Set(Object.keys(errors).map((key) => key.replace(/\.\d+$/, '')))];
}
