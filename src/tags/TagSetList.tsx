import { CreateButton, DataTable, List, TopToolbar, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';

/** /tags: saved tag sets — ID, name, delete. */
export const TagSetList = () => {
  const translate = useTranslate();
  return (
    <List
      title={translate('kadr.tags.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
      exporter={false}
      empty={false}
    >
      <DataTable rowClick="edit" bulkActionButtons={false} empty={<Empty />}>
        <DataTable.Col source="id" label="kadr.tags.fields.id" disableSort />
        <DataTable.Col source="name" label="kadr.tags.fields.name" disableSort />
        <DataTable.Col label="" disableSort>
          <DeleteRowButton successMessage="kadr.tags.deleted" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};

const Empty = () => {
  const translate = useTranslate();
  return <div style={{ padding: 16 }}>{translate('kadr.common.nothing_found')}</div>;
};
