import { api, withQuery } from '../../api.js';
import type { Member, MemberPage } from '../../api-types.js';
import { useLoad } from '../../components/states.js';

/** Every member of the tenant, page after page (a tenant has tens of people, not thousands). */
async function allMembers(): Promise<Member[]> {
  const members: Member[] = [];
  for (let page = 1; ; page++) {
    const answer = await api<MemberPage>(
      'GET',
      withQuery('/api/organization/members', { page: String(page), per_page: '100' }),
    );
    members.push(...answer.data);
    if (page >= answer.last_page) return members;
  }
}

/**
 * The tenant's members by id, to show people by name. Only admins holding tokens:govern may list
 * them: for anyone else (or while loading) the map is empty and ids are shown as `#id`.
 */
export function useMembers(): Map<number, Member> {
  const loaded = useLoad(allMembers, 'organization-members');
  return new Map((loaded.data ?? []).map((member) => [member.id, member]));
}

/** A user id as a person reads it: the member's name, else `#id`; no id is the system. */
export function causerName(
  members: Map<number, Member>,
  id: number | string | null | undefined,
): string {
  if (!id) return 'system';
  return members.get(Number(id))?.name ?? `#${id}`;
}
