/**
 * Control characters in a text field a person types (names, descriptions): C0 controls but tab,
 * DEL and the C1 controls. A NUL cuts the text short in C-string consumers (logs, exports,
 * terminals), and the others rewrite what a terminal or log viewer shows. Line breaks are
 * allowed only where a field may span lines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_OR_LINE_BREAKS = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/;

export function hasControlCharacters(text: string, options: { lineBreaks?: boolean } = {}) {
  return (options.lineBreaks ? CONTROLS : CONTROLS_OR_LINE_BREAKS).test(text);
}

/** The 422 message for a field refused by `hasControlCharacters`. */
export function controlCharactersMessage(field: string): string {
  return `The ${field} field must not contain control characters.`;
}
