import { Card, CardContent, Typography } from '@mui/material';
import { Edit, SimpleForm, useGetIdentity, useNotify, useRecordContext, useTranslate } from 'react-admin';
import { EditToolbar } from '../common/EditToolbar';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserEditFormSchema } from '../contract/users';
import { UserInputs, toUserBody } from './UserInputs';
import { UserAccounts, UserVideos } from './UserOwned';
import { TwoFactorReset } from './TwoFactorReset';
import { UserApiKeys } from './UserApiKeys';

const Title = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{record ? translate('kadr.users.edit_title', { id: record.id }) : ''}</>;
};

/**
 * /users/{id}: 'User #{id}', the form (an empty password keeps the current one), two-factor reset, the user's API
 * keys (revocable), profiles and videos.
 */
export const UserEdit = () => {
  const notify = useNotify();
  return (
    <Edit
      title={<Title />}
      transform={toUserBody}
      mutationMode="pessimistic"
      redirect={false}
      queryOptions={{ meta: { fullBody: true } }}
      mutationOptions={{ meta: { fullBody: true }, onSuccess: () => notify('kadr.users.updated', { type: 'success' }) }}
    >
      <SimpleForm
        resolver={zodResolver(UserEditFormSchema)}
        toolbar={<UserToolbar />}
        sx={{ maxWidth: 640 }}
        defaultValues={{ password: '', repeatPassword: '' }}
        sanitizeEmptyValues={false}
      >
        <UserInputs editing />
      </SimpleForm>
      <TwoFactorReset />
      <UserApiKeys />
      <Owned />
    </Edit>
  );
};

/** Save, and delete with SPEC §8 toasts ('Користувача видалено' / the server's reason); none on your own row. */
const UserToolbar = () => {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  return (
    <EditToolbar
      successMessage="kadr.users.deleted"
      listPath="/users"
      confirmContent="kadr.users.delete_content"
      canDelete={Boolean(record && identity && String(identity.id) !== String(record.id))}
    />
  );
};

const Owned = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6">{translate('kadr.users.accounts')}</Typography>
        <UserAccounts userId={record.id as number} />
        <Typography variant="h6" sx={{ mt: 3 }}>
          {translate('kadr.users.videos')}
        </Typography>
        <UserVideos userId={record.id as number} />
      </CardContent>
    </Card>
  );
};
