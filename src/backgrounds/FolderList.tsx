import { Button, DataTable, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ListActions, searchFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { Link } from 'react-router-dom';
import AddIcon from '@mui/icons-material/CreateNewFolder';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { EmptyList } from '../common/EmptyList';
import { OneLine } from '../common/OneLine';
import { useIsSmall } from '../common/useIsSmall';

const Name = () => <OneLine text={useRecordContext()?.name} />;
const Owner = () => <>{useRecordContext()?.user?.login ?? ''}</>;

const Actions = () => (
  <ListActions>
    <Button component={Link} to="/photos/create-folder" label="kadr.backgrounds.create_folder">
      <AddIcon />
    </Button>
  </ListActions>
);

/** /photos: background folders, titled 'Background', with 'Create folder'; a row opens /photos/{id}. */
export const FolderList = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const isAdmin = permissions === 'admin';
  const isSmall = useIsSmall();
  return (
    <List
      resource="photos"
      title={translate('kadr.backgrounds.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={<Actions />}
      exporter={false}
      empty={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={isAdmin ? [searchFilter(), ownerFilter()] : [searchFilter()]}
    >
      <DataTable
        rowClick={(id) => `/photos/${id}`}
        bulkActionButtons={false}
        empty={
          <EmptyList
            list="backgrounds"
            create={{ to: '/photos/create-folder', label: 'kadr.backgrounds.create_folder' }}
          />
        }
      >
        <DataTable.Col source="id" label="kadr.backgrounds.fields.id" />
        <DataTable.Col source="name" label="kadr.backgrounds.fields.name">
          <Name />
        </DataTable.Col>
        <DataTable.Col source="total" label="kadr.backgrounds.fields.total" sortByOrder="DESC" />
        {isAdmin && !isSmall ? (
          <DataTable.Col source="user" label="kadr.backgrounds.fields.user">
            <Owner />
          </DataTable.Col>
        ) : null}
        <DataTable.Col label="" disableSort>
          <DeleteRowButton resource="photos" successMessage="kadr.backgrounds.folder_deleted" />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
