/** The API's list filters take m/d/Y; a date input speaks YYYY-MM-DD. Invalid text gives ''. */
export function apiDateToInput(value: string): string {
  const parts = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  return parts ? `${parts[3]}-${parts[1]!.padStart(2, '0')}-${parts[2]!.padStart(2, '0')}` : '';
}

export function inputDateToApi(value: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return parts ? `${parts[2]}/${parts[3]}/${parts[1]}` : '';
}
