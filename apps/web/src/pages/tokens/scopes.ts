import { SCOPES } from '@inventory/access';

/** The specification's scope table, grouped by resource for the checkboxes. */
export function scopesByResource(): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const scope of SCOPES) {
    const [resource] = scope.split(':');
    groups.set(resource!, [...(groups.get(resource!) ?? []), scope]);
  }
  return [...groups.entries()];
}
