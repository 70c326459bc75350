/** The API's list filters take m/d/Y; a date input speaks YYYY-MM-DD. Invalid text gives ''. */
export function apiDateToInput(value: string): string {
  const parts = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!parts) return '';
  const [month, day, year] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // 13/45/2026 is no day: a date input would show its text as if it were one.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return '';
  return `${parts[3]}-${parts[1]!.padStart(2, '0')}-${parts[2]!.padStart(2, '0')}`;
}

export function inputDateToApi(value: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return parts ? `${parts[2]}/${parts[3]}/${parts[1]}` : '';
}
