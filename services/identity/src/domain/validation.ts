import type { FieldViolation } from '@inventory/platform';

/** Laravel's wording, so clients see the messages the specification's examples use. */
export const messages = {
  required: (field: string) => `The ${label(field)} field is required.`,
  maxString: (field: string, max: number) =>
    `The ${label(field)} field must not be greater than ${max} characters.`,
  minString: (field: string, min: number) =>
    `The ${label(field)} field must be at least ${min} characters.`,
  between: (field: string, min: number, max: number) =>
    `The ${label(field)} field must be between ${min} and ${max}.`,
  invalid: (field: string) => `The selected ${label(field)} is invalid.`,
  email: (field: string) => `The ${label(field)} field must be a valid email address.`,
  after: (field: string) => `The ${label(field)} field must be a date after now.`,
  taken: (field: string) => `The ${label(field)} has already been taken.`,
  format: (field: string) => `The ${label(field)} field format is invalid.`,
};

/** `ip_allowlist.2` reads as "ip allowlist.2", as Laravel does. */
export function label(field: string): string {
  return field.replace(/_/g, ' ');
}

export class Violations {
  readonly list: FieldViolation[] = [];
  /**
   * Starts from the gateway's type errors (`input_violations`): the rules' findings for those
   * fields are then dropped, so one answer names every bad field once (a missing name is the
   * gateway's "required", not a second message from the rules).
   */
  constructor(private readonly typed: readonly FieldViolation[] = []) {
    this.list.push(...typed);
  }
  add(field: string, description: string): void {
    if (this.typed.some((violation) => violation.field === field)) return;
    this.list.push({ field, description });
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
