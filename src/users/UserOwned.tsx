import { DataTable, ListBase, useRecordContext, type Identifier } from 'react-admin';
import { Link } from 'react-router-dom';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { UtcDateField } from '../common/UtcDateField';
import { StatusBadge } from '../common/StatusBadge';
import { NothingFound } from '../common/NothingFound';
import { ProfileName } from '../accounts/ProfileName';

const OwnedName = () => {
  const r = useRecordContext();
  return r ? (
    <ProfileName profile={{ id: Number(r.id), comments: r.comments, handles: r.handles, title: r.name }} />
  ) : null;
};

/** A user's profiles, paged in place (the `users/{id}/account` resource). */
export const UserAccounts = ({ userId }: { userId: Identifier }) => (
  <ListBase resource={`users/${userId}/account`} perPage={PAGE_SIZE} disableSyncWithLocation storeKey={false}>
    <DataTable rowClick={(id) => `/accounts/${id}`} bulkActionButtons={false} empty={<NothingFound padding={8} />}>
      <DataTable.Col source="id" label="kadr.users.fields.id" disableSort />
      <DataTable.Col source="name" label="kadr.users.fields.account" disableSort>
        <OwnedName />
      </DataTable.Col>
      <DataTable.Col source="createdAt" label="kadr.users.fields.createdAt" disableSort>
        <UtcDateField source="createdAt" />
      </DataTable.Col>
    </DataTable>
    <Pagination />
  </ListBase>
);

const AccountLink = () => {
  const r = useRecordContext();
  return r?.account?.id ? (
    <Link to={`/accounts/${r.account.id}`} onClick={(e) => e.stopPropagation()}>
      #{r.account.id}
    </Link>
  ) : null;
};
const Status = () => <StatusBadge status={useRecordContext()?.status} />;

/** A user's videos, paged in place; each links to its profile's page. */
export const UserVideos = ({ userId }: { userId: Identifier }) => (
  <ListBase resource={`users/${userId}/video`} perPage={PAGE_SIZE} disableSyncWithLocation storeKey={false}>
    <DataTable
      bulkActionButtons={false}
      rowClick={(_id, _res, r) => (r.account?.id ? `/accounts/${r.account.id}` : false)}
      empty={<NothingFound padding={8} />}
    >
      <DataTable.Col source="id" label="kadr.users.fields.id" disableSort />
      <DataTable.Col source="account" label="kadr.users.fields.account" disableSort>
        <AccountLink />
      </DataTable.Col>
      <DataTable.Col source="createdAt" label="kadr.users.fields.createdAt" disableSort>
        <UtcDateField source="createdAt" />
      </DataTable.Col>
      <DataTable.Col source="status" label="" disableSort>
        <Status />
      </DataTable.Col>
    </DataTable>
    <Pagination />
  </ListBase>
);
