import { DataTable, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { VIDEO_STATUSES } from '../contract/statuses';
import { ListActions, ownerFilter, searchFilter, statusFilter } from '../common/listFilters';
import { Link as RouterLink } from 'react-router-dom';
import { Link } from '@mui/material';
import { PAGE_SIZE } from '../contract/pagination';
import { shownStatus, type YouTubeItem } from '../contract/publications';
import { Pagination } from '../common/Pagination';
import { StatusBadge } from '../common/StatusBadge';
import { detailPath } from './paths';
import { NothingFound } from '../common/NothingFound';

/** The title, or the idUpload when there is none (SPEC §2), linking to the publication. */
const TitleCell = () => {
  const r = useRecordContext<YouTubeItem>();
  if (!r) return null;
  return (
    <Link component={RouterLink} to={detailPath(r.idUpload)} onClick={(e) => e.stopPropagation()}>
      {r.title || r.idUpload}
    </Link>
  );
};
const StatusCell = () => {
  const r = useRecordContext<YouTubeItem>();
  return r ? <StatusBadge status={shownStatus(r.status, r.retrying)} /> : null;
};
const filters = (isAdmin: boolean) => [
  searchFilter(),
  statusFilter('video', VIDEO_STATUSES),
  ...(isAdmin ? [ownerFilter()] : []),
];

/** /video/list: the YouTube list (SPEC §2): ID, the title, Status; each row opens /video/youtube/{idUpload}. */
export const YouTubeList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  return (
    <List
      resource="upload-video"
      title={translate('kadr.videos.youtube_title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      exporter={false}
      empty={false}
      actions={<ListActions />}
      storeKey={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={filters(isAdmin)}
    >
      <DataTable
        bulkActionButtons={false}
        empty={<NothingFound />}
        rowClick={(_id, _resource, record) => detailPath(String(record.idUpload))}
      >
        <DataTable.Col source="id" label="kadr.publishing.fields.id" />
        <DataTable.Col source="title" label="">
          <TitleCell />
        </DataTable.Col>
        <DataTable.Col source="status" label="kadr.publishing.fields.status" disableSort>
          <StatusCell />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
