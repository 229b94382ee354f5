import { CreateButton, DataTable, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ListActions, searchFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { EmptyList } from '../common/EmptyList';
import { OneLine } from '../common/OneLine';
import { useIsSmall } from '../common/useIsSmall';

const Name = () => <OneLine text={useRecordContext()?.name} />;
const Owner = () => <>{useRecordContext()?.user?.login ?? ''}</>;

/** /accounts/group/list (and /accounts/group): profile groups — ID, name, member count, (admins) owner, delete. */
export const GroupList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  const isSmall = useIsSmall();
  return (
    <List
      resource="accounts/group"
      title={translate('kadr.groups.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <ListActions>
          <CreateButton resource="accounts/group" />
        </ListActions>
      }
      exporter={false}
      empty={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={isAdmin ? [searchFilter(), ownerFilter()] : [searchFilter()]}
    >
      <DataTable
        rowClick="edit"
        bulkActionButtons={false}
        empty={<EmptyList list="groups" create={{ to: '/accounts/group/create', label: 'ra.action.create' }} />}
      >
        <DataTable.Col source="id" label="kadr.groups.fields.id" />
        <DataTable.Col source="name" label="kadr.groups.fields.name">
          <Name />
        </DataTable.Col>
        <DataTable.NumberCol source="accountsCount" label="kadr.lists.members" sortByOrder="DESC" />
        {isAdmin && !isSmall && (
          <DataTable.Col source="user" label="kadr.groups.fields.user">
            <Owner />
          </DataTable.Col>
        )}
        <DataTable.Col label="" disableSort>
          <DeleteRowButton successMessage="kadr.groups.deleted" confirmContent="kadr.groups.delete_content" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
