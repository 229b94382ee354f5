import { CreateButton, DataTable, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ListActions, searchFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { EmptyList } from '../common/EmptyList';
import { TagChips } from './TagChips';
import { OneLine } from '../common/OneLine';
import { useIsSmall } from '../common/useIsSmall';

const Name = () => <OneLine text={useRecordContext()?.name} />;

/** /tags: saved tag sets — ID, name, its tags (chips, '+N' past a few; on a phone under the name), delete. */
export const TagSetList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  const isSmall = useIsSmall();
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
      <DataTable
        rowClick="edit"
        bulkActionButtons={false}
        empty={<EmptyList list="tags" create={{ to: '/tags/create', label: 'ra.action.create' }} />}
      >
        <DataTable.Col source="id" label="kadr.tags.fields.id" />
        <DataTable.Col source="name" label="kadr.tags.fields.name">
          <Name />
          {isSmall && <TagChips />}
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="tags" label="kadr.tags.fields.tags" disableSort>
            <TagChips />
          </DataTable.Col>
        )}
        <DataTable.Col label="" disableSort>
          <DeleteRowButton successMessage="kadr.tags.deleted" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
