import { CreateButton, DataTable, List, usePermissions, useTranslate } from 'react-admin';
import { ListActions, searchFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { NothingFound } from '../common/NothingFound';
import { TagChips } from './TagChips';

/** /tags: saved tag sets — ID, name, its tags (chips, '+N' past a few), delete. */
export const TagSetList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  return (
    <List
      title={translate('kadr.tags.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <ListActions>
          <CreateButton />
        </ListActions>
      }
      exporter={false}
      empty={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={isAdmin ? [searchFilter(), ownerFilter()] : [searchFilter()]}
    >
      <DataTable rowClick="edit" bulkActionButtons={false} empty={<NothingFound />}>
        <DataTable.Col source="id" label="kadr.tags.fields.id" />
        <DataTable.Col source="name" label="kadr.tags.fields.name" />
        <DataTable.Col source="tags" label="kadr.tags.fields.tags" disableSort>
          <TagChips />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <DeleteRowButton successMessage="kadr.tags.deleted" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
