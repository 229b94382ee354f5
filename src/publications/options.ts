import { useQuery } from '@tanstack/react-query';
import { useDataProvider, type DataProvider, type RaRecord } from 'react-admin';
import type { GroupListItem, GroupRecord } from '../contract/groups';
import { PAGE_SIZE } from '../contract/pagination';
import type { TagSetRecord } from '../contract/tags';
import type { KadrDataProvider } from '../providers/dataProvider';

/** Every page of a resource's list (the quick-picks offer all of the user's groups and tag sets; lists are short). */
async function allPages<R extends RaRecord>(dataProvider: DataProvider, resource: string, signal: AbortSignal) {
  const out: R[] = [];
  for (let page = 1; ; page++) {
    const { data, pageInfo } = await dataProvider.getList<R>(resource, {
      pagination: { page, perPage: PAGE_SIZE },
      signal,
    });
    out.push(...data);
    if (!pageInfo?.hasNextPage || page >= 50) return out;
  }
}

/** The caller's profiles as select options (all of them for an admin), the same query the group form's picker makes. */
export const useAccountOptions = () => {
  const dataProvider = useDataProvider<KadrDataProvider>();
  return useQuery({
    queryKey: ['accounts/search', 0, ''],
    queryFn: ({ signal }) => dataProvider.searchProfiles({ groupId: 0 }, signal),
    staleTime: 30_000,
  });
};

export const useGroups = () => {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ['publishing/groups'],
    queryFn: ({ signal }) => allPages<GroupListItem>(dataProvider, 'accounts/group', signal),
    staleTime: 30_000,
  });
};

export const useTagSets = () => {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ['publishing/tag-sets'],
    queryFn: ({ signal }) => allPages<TagSetRecord>(dataProvider, 'tags', signal),
    staleTime: 30_000,
  });
};

/** A group's profiles, as select options. */
export const useGroupAccounts = () => {
  const dataProvider = useDataProvider();
  return async (id: number) => (await dataProvider.getOne<GroupRecord>('accounts/group', { id })).data.accounts;
};
