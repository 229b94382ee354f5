import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CreateButton, DataTable, List, useNotify, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { PAGE_SIZE } from '../contract/pagination';
import { ACCOUNT_STATUSES } from '../contract/statuses';
import { PROFILE_PLATFORMS } from '../contract/list-queries';
import { PLATFORM_TITLES, type PlatformKey } from '../contract/platforms';
import type { AccountListItem } from '../contract/accounts';
import { Stack, Typography } from '@mui/material';
import { useStoredError } from '../common/useStoredMessage';
import { ErrorDetail } from '../common/ErrorDetail';
import { ListActions, searchFilter, selectFilter, statusFilter } from '../common/listFilters';
import { ownerFilter } from '../common/ownerFilter';
import { Pagination } from '../common/Pagination';
import { DeleteRowButton } from '../common/DeleteRowButton';
import { StatusBadge } from '../common/StatusBadge';
import { PlatformTick } from './PlatformTick';
import { ProfileName } from './ProfileName';
import { profileText } from '../contract/profile-identity';
import { EmptyList } from '../common/EmptyList';
import { useIsSmall } from '../common/useIsSmall';

const Tick = ({ field }: { field: string }) => <PlatformTick active={Boolean(useRecordContext()?.[field])} />;
const Owner = () => <>{useRecordContext()?.user?.login ?? ''}</>;
const Name = () => {
  const r = useRecordContext();
  return r ? (
    <ProfileName profile={{ id: Number(r.id), comments: r.comments, handles: r.handles, title: r.name }} />
  ) : null;
};
const platformChoices = PROFILE_PLATFORMS.map((p) => ({ id: p, name: p === 'gpt' ? 'GPT' : PLATFORM_TITLES[p] }));
const filters = (isAdmin: boolean) => [
  searchFilter(),
  statusFilter('account', ACCOUNT_STATUSES),
  selectFilter('platform', 'kadr.lists.platform', platformChoices),
  ...(isAdmin ? [ownerFilter()] : []),
];
/**
 * The profile's status and, when it fails (a dead proxy, a lost grant), why: the profile's own error, else each
 * failing platform's, translated (issue 18 item 2: a failing profile never reads "Active").
 */
const Status = () => {
  const r = useRecordContext<AccountListItem>();
  const translate = useTranslate();
  const stored = useStoredError();
  if (!r) return null;
  const platformErrors = (Object.entries(r.platformErrors ?? {}) as [PlatformKey, string | null][])
    .filter(([, e]) => e)
    .map(([p, e]) => {
      const { message, detail } = stored(e);
      return {
        text: translate('kadr.posts.platform_failing', { platform: PLATFORM_TITLES[p], reason: message }),
        detail,
      };
    });
  const own = r.error ? stored(r.error) : null;
  const errors = own ? [{ text: own.message, detail: own.detail }] : platformErrors;
  const reasons = errors.map((e) => e.text);
  // The platforms' own words, apart from the translated reasons.
  const details = [...new Set(errors.flatMap((e) => (e.detail ? [e.detail] : [])))].join('; ');
  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      <span>
        <StatusBadge kind="account" status={r.status} />
      </span>
      {r.status === 'error' && reasons.length > 0 && (
        <Typography
          variant="caption"
          color="error"
          data-reason
          title={reasons.join('\n')}
          sx={{
            overflowWrap: 'anywhere',
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
          }}
        >
          {translate('kadr.posts.profile_failing', { reason: reasons.join('; ') })}
        </Typography>
      )}
      {r.status === 'error' && <ErrorDetail detail={details} label="platform" />}
    </Stack>
  );
};

const LINK_REASONS = ['link_invalid', 'link_profile_gone'];

/** An authorization link that could not be tied to a profile lands here (?connect_error&reason): say why, once. */
const useConnectErrorToast = () => {
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (!params.get('connect_error')) return;
    const reason = params.get('reason') ?? '';
    notify(`kadr.accounts.errors.${LINK_REASONS.includes(reason) ? reason : 'connect_failed'}`, { type: 'error' });
    setParams({}, { replace: true });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
};

/**
 * /accounts and /accounts/list: 'Профіля' — ID, Name, user (admins), GPT, YouTube, TikTok, Instagram, status, delete.
 * On a phone: ID, name, status and delete (the platforms are on the profile's page).
 */
export const AccountList = () => {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  const isAdmin = permissions === 'admin';
  const isSmall = useIsSmall();
  useConnectErrorToast();
  return (
    <List
      resource="accounts"
      title={translate('kadr.accounts.title')}
      perPage={PAGE_SIZE}
      pagination={<Pagination />}
      storeKey={false}
      actions={
        <ListActions>
          <CreateButton resource="accounts" />
        </ListActions>
      }
      sort={{ field: 'id', order: 'DESC' }}
      filters={filters(isAdmin)}
      empty={false}
    >
      <DataTable
        rowClick="edit"
        bulkActionButtons={false}
        empty={<EmptyList list="profiles" create={{ to: '/accounts/create', label: 'ra.action.create' }} />}
      >
        <DataTable.Col source="id" label="kadr.accounts.fields.id" />
        <DataTable.Col source="name" label="kadr.accounts.fields.name">
          <Name />
        </DataTable.Col>
        {isAdmin && !isSmall && (
          <DataTable.Col source="user" label="kadr.accounts.fields.user">
            <Owner />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="isActiveGPT" label="kadr.accounts.fields.gpt" disableSort>
            <Tick field="isActiveGPT" />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="isActiveYouTube" label="kadr.accounts.fields.youtube" disableSort>
            <Tick field="isActiveYouTube" />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="isActiveTikTok" label="kadr.accounts.fields.tiktok" disableSort>
            <Tick field="isActiveTikTok" />
          </DataTable.Col>
        )}
        {!isSmall && (
          <DataTable.Col source="isActiveInstagram" label="kadr.accounts.fields.instagram" disableSort>
            <Tick field="isActiveInstagram" />
          </DataTable.Col>
        )}
        <DataTable.Col source="status" label="kadr.accounts.fields.status">
          <Status />
        </DataTable.Col>
        <DataTable.Col label="" disableSort>
          <DeleteRowButton
            resource="accounts"
            successMessage="kadr.accounts.deleted"
            confirmContent="kadr.accounts.delete_content"
            nameOf={(r) => profileText({ id: Number(r.id), comments: r.comments, handles: r.handles, title: r.name })}
          />
        </DataTable.Col>
      </DataTable>
    </List>
  );
};
