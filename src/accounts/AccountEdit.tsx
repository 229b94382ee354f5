import { Suspense, useEffect, useRef } from 'react';
import { Edit, SimpleForm, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { zodResolver } from '@hookform/resolvers/zod';
import { AccountFormSchema, type AccountRecord } from '../contract/accounts';
import { PLATFORM_TITLES, isPlatformKey } from '../contract/platforms';
import { useStoredError } from '../common/useStoredMessage';
import { AccountInputs } from './AccountInputs';
import { AccountPanels } from './AccountPanels';
import { SlotsPanel } from '../slots/SlotsPanel';
import { AccountVideos } from './AccountVideos';
import { ProfileStats } from '../analytics/index';

const Title = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  // The operator's own name for the profile beside its id (issue 18): profiles of one channel name differ here too.
  const comment = typeof record.comments === 'string' ? record.comments.trim() : '';
  return (
    <>
      {comment
        ? translate('kadr.accounts.edit_title_named', { id: record.id, name: comment })
        : translate('kadr.accounts.edit_title', { id: record.id })}
    </>
  );
};

/** Keyed by the saved time, so the form re-initialises from the saved data after every save (SPEC §4). */
const AccountForm = () => {
  const record = useRecordContext<AccountRecord>();
  return (
    <SimpleForm
      key={record?.updatedAt ?? 'new'}
      resolver={zodResolver(AccountFormSchema)}
      toolbar={false}
      sanitizeEmptyValues={false}
    >
      <AccountInputs mode="edit" />
    </SimpleForm>
  );
};

/** The profile's `error` as a toast when it loads (SPEC §8), and the result of an authorization round trip. */
const LoadToasts = () => {
  const record = useRecordContext<AccountRecord>();
  const notify = useNotify();
  const storedError = useStoredError();
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const shownFor = useRef<unknown>(null);
  useEffect(() => {
    if (!record?.id || shownFor.current === record.id) return;
    shownFor.current = record.id;
    const connected = params.get('connected');
    if (connected)
      notify('kadr.accounts.connected_toast', {
        type: 'success',
        messageArgs: { platform: isPlatformKey(connected) ? PLATFORM_TITLES[connected] : connected },
      });
    if (record.error) {
      const { message, detail } = storedError(record.error);
      notify(detail ? `${message}\n${translate('kadr.common.error_detail', { detail })}` : message, { type: 'error' });
    }
    if (connected || params.get('connect_error')) setParams({}, { replace: true });
  }, [record?.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
};

/** The profile's views per day on each platform (its chart loads on its own). */
const ProfileChart = () => {
  const record = useRecordContext<AccountRecord>();
  if (!record?.id) return null;
  return (
    <Suspense fallback={null}>
      <ProfileStats accountId={Number(record.id)} />
    </Suspense>
  );
};

/** /accounts/{id}: the form, the platform panels and the profile's videos. */
export const AccountEdit = () => {
  const notify = useNotify();
  return (
    <Edit
      title={<Title />}
      mutationMode="pessimistic"
      redirect={false}
      mutationOptions={{ onSuccess: () => notify('kadr.accounts.saved', { type: 'success' }) }}
    >
      <AccountForm />
      <LoadToasts />
      <AccountPanels />
      <ProfileChart />
      <SlotsPanel />
      <AccountVideos />
    </Edit>
  );
};
