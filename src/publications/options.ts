import { useQuery } from '@tanstack/react-query';
import type { SelectOption } from '../contract/groups';
import type { Page } from '../contract/pagination';
import { httpClient } from '../providers/httpClient';

/** Every page of a paged list (the quick-picks offer all of the user's groups and tag sets; lists are short). */
async function allPages<T>(path: string, signal: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const p = (await httpClient(`${path}?page=${page}`, { signal })).json as Page<T>;
    out.push(...p.data);
    if (page >= p.totalPages || page >= 50) return out;
  }
}

/** The caller's profiles as select options (all of them for an admin), the same query the group form's picker makes. */
export const useAccountOptions = () =>
  useQuery({
    queryKey: ['accounts/search', 0, ''],
    queryFn: async ({ signal }) =>
      (await httpClient('/api/accounts/search?groupId=0', { signal })).json as SelectOption[],
    staleTime: 30_000,
  });

export type NamedItem = { id: number; name: string };
export type TagSetItem = NamedItem & { tags: string[] };

export const useGroups = () =>
  useQuery({
    queryKey: ['publishing/groups'],
    queryFn: ({ signal }) => allPages<NamedItem>('/api/accounts-group', signal),
    staleTime: 30_000,
  });

export const useTagSets = () =>
  useQuery({
    queryKey: ['publishing/tag-sets'],
    queryFn: ({ signal }) => allPages<TagSetItem>('/api/tags', signal),
    staleTime: 30_000,
  });

/** A group's profiles (GET /api/accounts-group/{id}). */
export const fetchGroupAccounts = async (id: number): Promise<SelectOption[]> =>
  ((await httpClient(`/api/accounts-group/${id}`)).json as { accounts: SelectOption[] }).accounts;
