/**
 * Intake events come from other areas; these rules keep what a row shows sane whatever a
 * producer sends: a relative web path, bounded text, and a plausible tracking number.
 */
export const LABEL_MAX = 255;
export const URL_MAX = 2048;
export const NUMBER_MAX = 100;

/** `trackable_url` as a relative path: an absolute URL keeps its path, query and fragment. */
export function relativeUrl(url: string): string {
  const text = url.trim();
  if (text === '') return '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) {
    try {
      const parsed = new URL(text, 'http://relative.invalid');
      // Only web addresses have a path worth keeping; javascript:, data: and the like do not.
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return '';
      return `${parsed.pathname}${parsed.search}${parsed.hash}`.slice(0, URL_MAX);
    } catch {
      return '';
    }
  }
  return (text.startsWith('/') ? text : `/${text}`).slice(0, URL_MAX);
}

export const boundedLabel = (label: string) => label.trim().slice(0, LABEL_MAX);

/** A number the provider could accept (letters, digits, dashes; at most 100 characters). */
export const isPlausibleNumber = (number: string) =>
  number.length <= NUMBER_MAX && /^[A-Za-z0-9-]+$/.test(number);
