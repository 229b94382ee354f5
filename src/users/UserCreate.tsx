import { Create, SaveButton, SimpleForm, Toolbar, useNotify, useRedirect, useTranslate } from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserFormSchema } from '../contract/users';
import { UserInputs, toUserBody } from './UserInputs';

export const UserCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('kadr.users.created', { type: 'success' });
    redirect('list', 'users');
  };
  return (
    <Create title={translate('kadr.users.create_title')} transform={toUserBody} mutationOptions={{ onSuccess }}>
      <SimpleForm
        resolver={zodResolver(UserFormSchema)}
        defaultValues={{ role: 'user' }}
        sx={{ maxWidth: 640 }}
        toolbar={
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        }
      >
        <UserInputs />
      </SimpleForm>
    </Create>
  );
};
