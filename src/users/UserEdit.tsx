import { Card, CardContent, Typography } from '@mui/material';
import {
  DeleteWithConfirmButton,
  Edit,
  SaveButton,
  SimpleForm,
  Toolbar,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { useDeleteToasts } from '../common/useDeleteToasts';
import { useDeleteTitle } from '../common/DeleteRowButton';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserEditFormSchema } from '../contract/users';
import { UserInputs, toUserBody } from './UserInputs';
import { UserAccounts, UserVideos } from './UserOwned';

const Title = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{record ? translate('kadr.users.edit_title', { id: record.id }) : ''}</>;
};

/** /users/{id}: 'User #{id}', the form (an empty password keeps the current one), the user's profiles and videos. */
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
        toolbar={<EditToolbar />}
        sx={{ maxWidth: 640 }}
        defaultValues={{ password: '', repeatPassword: '' }}
        sanitizeEmptyValues={false}
      >
        <UserInputs editing />
      </SimpleForm>
      <Owned />
    </Edit>
  );
};

/** Save, and delete with SPEC §8 toasts ('Користувача видалено' / the server's reason), then back to the list. */
const EditToolbar = () => {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  const title = useDeleteTitle();
  const redirect = useRedirect();
  const mutationOptions = useDeleteToasts('kadr.users.deleted', () => redirect('list', 'users'));
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton alwaysEnable />
      {record && identity && String(identity.id) !== String(record.id) && (
        <DeleteWithConfirmButton
          redirect={false}
          confirmTitle={title(record)}
          confirmContent="kadr.users.delete_content"
          mutationOptions={mutationOptions}
        />
      )}
    </Toolbar>
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
