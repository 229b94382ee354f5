import { DataTable, DateInput, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Link, Stack } from '@mui/material';
import { VIDEO_STATUSES } from '../contract/statuses';
import { PLATFORMS, PLATFORM_TITLES } from '../contract/platforms';
import { ListActions, searchFilter, selectFilter, statusFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { PAGE_SIZE } from '../contract/pagination';
import { shownStatus, type YouTubeItem } from '../contract/publications';
import { Pagination } from '../common/Pagination';
import { StatusBadge } from '../common/StatusBadge';
import { useFormatUtc } from '../common/useFormatUtc';
import { useIsSmall } from '../common/useIsSmall';
import { ProfileName } from '../accounts/ProfileName';
import { detailPath } from './paths';
import { EmptyList } from '../common/EmptyList';
import { FIT_CELL } from '../common/OneLine';

/** How many profiles a row names before '+N' (a publication may go to dozens). */
const PROFILES_SHOWN = 2;

/**
 * The title, or the idUpload when there is none (SPEC §2), linking to the publication: at most two lines, as wide
 * as the column's share of the room (so on a phone it does not wrap a word per line), the whole title on hover.
 */
const TitleCell = () => {
  const r = useRecordContext<YouTubeItem>();
  if (!r) return null;
  return (
    <Box component="span" sx={FIT_CELL}>
      <Link
        component={RouterLink}
        to={detailPath(r.idUpload)}
        onClick={(e) => e.stopPropagation()}
        title={r.title || r.idUpload}
        sx={{
          display: '-webkit-box',
          WebkitLineClamp: 2,
          WebkitBoxOrient: 'vertical',
          overflow: 'hidden',
          overflowWrap: 'anywhere',
        }}
      >
        {r.title || r.idUpload}
      </Link>
    </Box>
  );
};
const StatusCell = () => {
  const r = useRecordContext<YouTubeItem>();
  return r ? <StatusBadge status={shownStatus(r.status, r.retrying)} /> : null;
};
const DateCell = () => <>{useFormatUtc()(useRecordContext<YouTubeItem>()?.date)}</>;
/** On a phone, under the title: '#id · date'. */
const SmallMeta = () => {
  const formatDate = useFormatUtc();
  const r = useRecordContext<YouTubeItem>();
  if (!r) return null;
  return (
    <Box component="span" sx={{ display: 'block', fontSize: '0.75rem', color: 'text.secondary' }}>
      {[`#${r.id}`, formatDate(r.date)].filter(Boolean).join(' · ')}
    </Box>
  );
};
const PlatformsCell = () => (
  <Box component="span" data-testid="publication-platforms" sx={{ whiteSpace: 'nowrap' }}>
    {(useRecordContext<YouTubeItem>()?.platforms ?? []).map((p) => PLATFORM_TITLES[p]).join(', ')}
  </Box>
);
const ProfilesCell = () => {
  const accounts = useRecordContext<YouTubeItem>()?.accounts ?? [];
  return (
    <Stack spacing={0.5} data-testid="publication-profiles" sx={{ minWidth: 0 }}>
      {accounts.slice(0, PROFILES_SHOWN).map((a) => (
        <ProfileName key={a.id} profile={a} />
      ))}
      {accounts.length > PROFILES_SHOWN && <Box component="span">+{accounts.length - PROFILES_SHOWN}</Box>}
    </Stack>
  );
};

const filters = (isAdmin: boolean) => [
  searchFilter(),
  statusFilter('video', VIDEO_STATUSES),
  selectFilter(
    'platform',
    'kadr.lists.publication_platform',
    PLATFORMS.map((p) => ({ id: p, name: PLATFORM_TITLES[p] })),
  ),
  <DateInput key="dateFrom" source="dateFrom" label="kadr.lists.date_from" />,
  <DateInput key="dateTo" source="dateTo" label="kadr.lists.date_to" />,
  ...(isAdmin ? [ownerFilter()] : []),
];

/**
 * /video/list: the YouTube list (SPEC §2), issue 18: ID, the title, the planned date, profiles (comment, id,
 * handles), platforms and state; filters by state, platform and a date range (UTC days). On a phone: the
 * title with its date, the profiles and the state.
 */
export const YouTubeList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  const isSmall = useIsSmall();
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
        empty={<EmptyList list="publications" />}
        rowClick={(_id, _resource, record) => detailPath(String(record.idUpload))}
      >
        {!isSmall && <DataTable.Col source="id" label="kadr.publishing.fields.id" />}
        <DataTable.Col source="title" label="kadr.lists.title">
          <TitleCell />
          {isSmall && <SmallMeta />}
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="date" label="kadr.lists.date" disableSort>
            <DateCell />
          </DataTable.Col>
        )}
        <DataTable.Col source="accounts" label="kadr.lists.profiles" disableSort>
          <ProfilesCell />
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="platforms" label="kadr.lists.platforms" disableSort>
            <PlatformsCell />
          </DataTable.Col>
        )}
        <DataTable.Col source="status" label="kadr.publishing.fields.status" disableSort>
          <StatusCell />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
