import { CreateButton, DataTable, List, TopToolbar, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';

/** /accounts/group/list (and /accounts/group): profile groups — ID, name, delete. */
export const GroupList = () => {
  const translate = useTranslate();
  return (
    <List
      resource="accounts/group"
      title={translate('kadr.groups.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <TopToolbar>
          <CreateButton resource="accounts/group" />
        </TopToolbar>
      }
      exporter={false}
      empty={false}
    >
      <DataTable rowClick="edit" bulkActionButtons={false} empty={<Empty />}>
        <DataTable.Col source="id" label="kadr.groups.fields.id" disableSort />
        <DataTable.Col source="name" label="kadr.groups.fields.name" disableSort />
        <DataTable.Col label="" disableSort>
          <DeleteRowButton successMessage="kadr.groups.deleted" confirmContent="kadr.groups.delete_content" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};

const Empty = () => {
  const translate = useTranslate();
  return <div style={{ padding: 16 }}>{translate('kadr.common.nothing_found')}</div>;
};
