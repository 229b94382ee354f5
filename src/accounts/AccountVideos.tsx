import { Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { shownStatus } from '../contract/publications';
import { DataTable, ListBase, SimpleList, useRecordContext, useTranslate } from 'react-admin';
import type { AccountVideoItem } from '../contract/accounts';
import { PAGE_SIZE } from '../contract/pagination';
import { Pagination } from '../common/Pagination';
import { StatusBadge } from '../common/StatusBadge';
import { useFormatUtc } from '../common/useFormatUtc';
import { useStoredMessage } from '../common/useStoredMessage';
import { NothingFound } from '../common/NothingFound';
import { AccountVideoTitle } from './AccountVideoTitle';
import { useIsSmall } from '../common/useIsSmall';

const useItem = () => useRecordContext<AccountVideoItem>();
const ok = (v?: AccountVideoItem) => v?.status === 'success';

/** Each count is the main platform's value plus Instagram's (the server's sum), shown for successful videos ('—' else). */
const Sum = ({ total }: { total: 'totalViews' | 'totalLikes' | 'totalComments' }) => {
  const v = useItem();
  return <>{ok(v) ? v![total] : '—'}</>;
};
const DateCell = () => {
  const formatDate = useFormatUtc();
  const v = useItem();
  return <>{formatDate(v?.date ?? v?.createdAt)}</>;
};
const Links = () => {
  const v = useItem();
  // No link yet: '—', as its neighbours show.
  if (!v?.urlInstagram && !v?.urlYouTube && !v?.urlTikTok) return <>—</>;
  return (
    <Stack direction="row" spacing={1}>
      {v?.urlInstagram && (
        <Link href={v.urlInstagram} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          Instagram
        </Link>
      )}
      {v?.urlYouTube && (
        <Link href={v.urlYouTube} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          YouTube
        </Link>
      )}
      {v?.urlTikTok && (
        <Link href={v.urlTikTok} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          TikTok
        </Link>
      )}
    </Stack>
  );
};
/** Status badge; on failure the error text: error, else the Instagram error, else 'N/A'. */
const StatusCell = () => {
  const v = useItem();
  const translate = useTranslate();
  const storedMessage = useStoredMessage();
  return (
    <Stack spacing={0.5}>
      <StatusBadge status={v ? shownStatus(v.status, v.retrying) : undefined} />
      {v?.status === 'error' && (
        <Typography variant="caption" color="error">
          {storedMessage(v.error || v.errorInstagram) || translate('kadr.common.not_available')}
        </Typography>
      )}
    </Stack>
  );
};

const f = (n: string) => `kadr.accounts.fields.${n}`;

/** On a phone, under the title: the date and, for a published video, its counts, each with its name. */
const SmallMeta = () => {
  const formatDate = useFormatUtc();
  const v = useItem();
  const translate = useTranslate();
  if (!v) return null;
  const counts = ok(v)
    ? [
        `${translate(f('views'))}: ${v.totalViews}`,
        `${translate(f('likes'))}: ${v.totalLikes}`,
        `${translate(f('commentsCount'))}: ${v.totalComments}`,
      ]
    : [];
  return <>{[formatDate(v.date ?? v.createdAt), ...counts].join(' · ')}</>;
};

/** The profile's videos, paged in place (the `accounts/{id}/video` resource). */
export const AccountVideos = () => {
  const r = useRecordContext();
  const translate = useTranslate();
  const isSmall = useIsSmall();
  if (!r?.id) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6">{translate('kadr.accounts.videos')}</Typography>
        <ListBase resource={`accounts/${r.id}/video`} perPage={PAGE_SIZE} disableSyncWithLocation storeKey={false}>
          {isSmall ? (
            // A phone: one stacked row per video (the table's eight columns do not fit 390 px).
            <SimpleList
              linkType={false}
              empty={<NothingFound padding={8} />}
              primaryText={() => <AccountVideoTitle />}
              secondaryText={() => (
                <Stack spacing={0.5} component="span" alignItems="flex-start" sx={{ display: 'flex', mt: 0.5 }}>
                  <span>
                    <SmallMeta />
                  </span>
                  <Links />
                  <StatusCell />
                </Stack>
              )}
              sx={{ '& .MuiListItem-root, & .MuiListItemButton-root': { px: 0 } }}
            />
          ) : (
            <DataTable bulkActionButtons={false} rowClick={false} empty={<NothingFound padding={8} />}>
              <DataTable.Col source="id" label={f('id')} disableSort />
              <DataTable.Col source="title" label="kadr.lists.title" disableSort>
                <AccountVideoTitle />
              </DataTable.Col>
              <DataTable.Col source="date" label={f('date')} disableSort>
                <DateCell />
              </DataTable.Col>
              <DataTable.Col source="views" label={f('views')} disableSort>
                <Sum total="totalViews" />
              </DataTable.Col>
              <DataTable.Col source="likes" label={f('likes')} disableSort>
                <Sum total="totalLikes" />
              </DataTable.Col>
              <DataTable.Col source="comments" label={f('commentsCount')} disableSort>
                <Sum total="totalComments" />
              </DataTable.Col>
              <DataTable.Col source="urlYouTube" label={f('links')} disableSort>
                <Links />
              </DataTable.Col>
              <DataTable.Col source="status" label={f('status')} disableSort>
                <StatusCell />
              </DataTable.Col>
            </DataTable>
          )}
          <Pagination />
        </ListBase>
      </CardContent>
    </Card>
  );
};
