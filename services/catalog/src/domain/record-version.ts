/**
 * The order of changes to one record: the producer's version, or the event's time in ms when the
 * producer sends none (0). Events at or below the stored version are ignored (ADR 0501).
 */
export const versionOf = (version: number, occurredAt: Date): number =>
  version > 0 ? version : occurredAt.getTime();

export const isRecordId = (id: number): boolean => Number.isSafeInteger(id) && id > 0;

/** Checks shared by every record snapshot: text fields non-empty (when required) and bounded. */
export function checkText(
  problems: string[],
  field: string,
  value: string,
  options: { required?: boolean; max: number },
): string {
  const text = value.trim();
  if (options.required && text === '') problems.push(`${field} is empty`);
  if (text.length > options.max) problems.push(`${field} is longer than ${options.max}`);
  return text;
}
