import { CreateButton, DataTable, List, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { REQUEST_STATUSES } from '../contract/videos';
import { UtcDateField } from '../common/UtcDateField';
import { ListActions, searchFilter, statusFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { ClipCell, OptionsCell } from './RequestCells';
import { requestPagePath } from './paths';
import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { PAGE_SIZE } from '../contract/pagination';
import { REQUEST_REFRESH_MS, type CreateVideoRequest } from '../contract/videos';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { StatusBadge } from '../common/StatusBadge';
import { RequestVideosButton } from '../publications/RequestVideos';
import { EmptyList } from '../common/EmptyList';
import { RenderFailureText } from './RenderFailureText';
import { useIsSmall } from '../common/useIsSmall';

/**
 * /video/request-create: the caller's create-video requests (an admin's: all), ID and status, refreshed
 * every 15 s; created date, clip name and options; the render percent while it runs; a Publish link only for
 * success; delete per request. A row opens the request's page (/video/request-create/{id}). On a phone: ID, the
 * clip with its status under it, the links and delete (the rest is on the request's page).
 */
export const RequestList = () => {
  const translate = useTranslate();
  const isAdmin = usePermissions().permissions === 'admin';
  const isSmall = useIsSmall();
  return (
    <List
      resource="create-video"
      title={translate('kadr.videos.requests_title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      queryOptions={{ refetchInterval: REQUEST_REFRESH_MS }}
      exporter={false}
      empty={false}
      sort={{ field: 'id', order: 'DESC' }}
      filters={filters(isAdmin)}
      actions={
        <ListActions>
          <CreateButton to="/video/create" label="kadr.videos.new_request" />
        </ListActions>
      }
    >
      <DataTable
        bulkActionButtons={false}
        rowClick={(id) => requestPagePath(id)}
        empty={<EmptyList list="requests" create={{ to: '/video/create', label: 'kadr.videos.new_request' }} />}
      >
        <DataTable.Col source="id" label="kadr.videos.fields.id" />
        {!isSmall && (
          <DataTable.Col source="createdAt" label="kadr.lists.created" sortByOrder="DESC">
            <UtcDateField source="createdAt" />
          </DataTable.Col>
        )}
        <DataTable.Col source="clipName" label="kadr.lists.clip">
          <ClipCell />
          {isSmall && <Status />}
        </DataTable.Col>
        {!isSmall && (
          <DataTable.Col source="count" label="kadr.lists.options">
            <OptionsCell />
          </DataTable.Col>
        )}
        {isAdmin && !isSmall && (
          <DataTable.Col source="user" label="kadr.videos.fields.user">
            <Owner />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="status" label="kadr.videos.fields.status">
            <Status />
          </DataTable.Col>
        )}
        <DataTable.Col label="" disableSort>
          <PublishLink />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <DeleteRowButton
            resource="create-video"
            successMessage="kadr.videos.deleted"
            confirmContent="kadr.videos.delete_content"
          />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};

const filters = (isAdmin: boolean) => [
  searchFilter(),
  statusFilter('request', REQUEST_STATUSES),
  ...(isAdmin ? [ownerFilter()] : []),
];
const Owner = () => <>{useRecordContext<CreateVideoRequest>()?.user.login ?? ''}</>;

const Status = () => {
  const r = useRecordContext<CreateVideoRequest>();
  const translate = useTranslate();
  if (!r) return null;
  return (
    // The badge with the render's progress on one line, an error's reason wrapped under it.
    <Stack spacing={0.5} sx={{ maxWidth: 240 }} data-request={r.idUpload}>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ minWidth: r.status === 'loading' ? 180 : 0 }}>
        <StatusBadge status={r.status} kind="request" />
        {r.status === 'loading' && (
          <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
            <LinearProgress
              variant="determinate"
              value={r.progress}
              sx={{ flex: 1 }}
              aria-label={translate('kadr.videos.progress', { percent: r.progress })}
            />
            <Typography variant="caption">{translate('kadr.videos.progress', { percent: r.progress })}</Typography>
          </Box>
        )}
        {(r.status === 'loading' || r.status === 'success') && r.count > 1 && (
          <Typography variant="caption" color="text.primary" sx={{ whiteSpace: 'nowrap', fontWeight: 500 }}>
            {translate('kadr.videos.outputs', { done: r.done, count: r.count })}
          </Typography>
        )}
      </Stack>
      {r.status === 'error' && r.error && <RenderFailureText error={r.error} small />}
    </Stack>
  );
};

const PublishLink = () => {
  const r = useRecordContext<CreateVideoRequest>();
  const translate = useTranslate();
  if (r?.status !== 'success') return null;
  // Inside a clickable row: these buttons (and the dialog they open) do not open the request page.
  return (
    // Both links start at the same edge, one line each where there is room.
    <Stack
      alignItems="flex-start"
      onClick={(e) => e.stopPropagation()}
      sx={{
        '& .MuiButton-root': { justifyContent: 'flex-start', textAlign: 'left', whiteSpace: { sm: 'nowrap' } },
      }}
    >
      <Button size="small" component={RouterLink} to={`/video/request/${r.idUpload}`}>
        {translate('kadr.videos.publish')}
      </Button>
      <RequestVideosButton idUpload={r.idUpload} id={r.id} />
    </Stack>
  );
};
