import type { UserRecord } from '../contract/users';
import { Chip, Stack } from '@mui/material';
import { CreateButton, DataTable, List, useGetIdentity, useRecordContext, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { ListActions, searchFilter, selectFilter } from '../common/listFilters';
import { NothingFound } from '../common/NothingFound';
import { OneLine } from '../common/OneLine';
import { MediaUsageCell } from '../media/MediaUsageCell';
import { useIsSmall } from '../common/useIsSmall';

const LoginCell = ({ withMedia }: { withMedia: boolean }) => {
  const record = useRecordContext<UserRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    // The 'Admin' and '2FA' marks beside the login; on a phone they and the media size go under it, so the row
    // keeps its counts and fits.
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 0.5, sm: 1 }}
      alignItems={{ xs: 'flex-start', sm: 'center' }}
    >
      <OneLine text={record.login} />
      {record.role === 'admin' && <Chip size="small" color="primary" label={translate('kadr.users.admin_mark')} />}
      {record.twoFactor && (
        <Chip size="small" variant="outlined" label={translate('kadr.two_factor.column')} data-two-factor-mark />
      )}
      {withMedia && <MediaUsageCell />}
    </Stack>
  );
};

/** No delete on the signed-in admin's own row: the server refuses to delete yourself, so the button could only fail. */
const DeleteCell = () => {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  if (!record || !identity || String(identity.id) === String(record.id)) return null;
  return <DeleteRowButton successMessage="kadr.users.deleted" confirmContent="kadr.users.delete_content" />;
};

const filters = [
  searchFilter(),
  selectFilter('role', 'kadr.lists.role', [
    { id: 'admin', name: 'kadr.users.roles.admin' },
    { id: 'user', name: 'kadr.users.roles.user' },
  ]),
];

/** /users: 'Користувачі' — ID, login with the 'Admin' mark, video and profile counts, media size, delete. */
export const UserList = () => {
  const translate = useTranslate();
  const isSmall = useIsSmall();
  return (
    <List
      title={translate('kadr.users.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <ListActions>
          <CreateButton />
        </ListActions>
      }
      sort={{ field: 'id', order: 'ASC' }}
      filters={filters}
    >
      <DataTable rowClick="edit" bulkActionButtons={false} empty={<NothingFound />}>
        <DataTable.Col source="id" label="kadr.users.fields.id" />
        <DataTable.Col source="login" label="kadr.users.fields.login">
          <LoginCell withMedia={isSmall} />
        </DataTable.Col>
        <DataTable.NumberCol source="videosCount" label="kadr.users.fields.videosCount" sortByOrder="DESC" />
        <DataTable.NumberCol source="accountsCount" label="kadr.users.fields.accountsCount" sortByOrder="DESC" />
        {!isSmall && (
          <DataTable.Col label="kadr.users.fields.mediaUsage" disableSort>
            <MediaUsageCell />
          </DataTable.Col>
        )}
        <DataTable.Col label="" disableSort>
          <DeleteCell />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
