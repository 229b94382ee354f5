import {
  Create,
  Edit,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { EditToolbar } from '../common/EditToolbar';
import { zodResolver } from '@hookform/resolvers/zod';
import { GroupSchema } from '../contract/groups';
import { AccountsSelectInput } from './AccountsSelectInput';

export const GROUPS_LIST_PATH = '/accounts/group/list';

const Inputs = () => (
  <>
    <TextInput source="name" label="kadr.groups.fields.name" autoComplete="off" />
    <AccountsSelectInput source="accounts" label="kadr.groups.fields.accounts" />
  </>
);

/** The create form's Save, enabled from the start like every other form's; the rules still apply when pressed. */
const FormToolbar = () => (
  <Toolbar>
    <SaveButton alwaysEnable />
  </Toolbar>
);

/** The profiles select holds ids, or options `{ value }` while it loads them. */
const toBody = ({ name, accounts }: Record<string, unknown>) => ({
  name,
  accounts: (Array.isArray(accounts) ? (accounts as unknown[]) : []).map((a) =>
    a && typeof a === 'object' ? (a as { value: unknown }).value : a,
  ),
});

/** /accounts/group/create: name and profiles; 'Группа створено', then the list. */
export const GroupCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('kadr.groups.created', { type: 'success' });
    redirect(GROUPS_LIST_PATH);
  };
  return (
    <Create title={translate('kadr.groups.create_title')} transform={toBody} mutationOptions={{ onSuccess }}>
      <SimpleForm
        toolbar={<FormToolbar />}
        resolver={zodResolver(GroupSchema)}
        defaultValues={{ name: '', accounts: [] }}
      >
        <Inputs />
      </SimpleForm>
    </Create>
  );
};

const Title = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{record ? translate('kadr.groups.edit_title', { id: record.id }) : ''}</>;
};

/** /accounts/group/{id}: the same form; 'Группа змінено'; Delete behind the lists' confirmation. */
export const GroupEdit = () => {
  const notify = useNotify();
  return (
    <Edit
      title={<Title />}
      transform={toBody}
      mutationMode="pessimistic"
      redirect={false}
      // The same meta on the read as on the save: react-admin keeps the edited record in the cache under it
      // (without it, it warns on every render that the data may go stale).
      queryOptions={{ meta: { fullBody: true } }}
      mutationOptions={{
        meta: { fullBody: true },
        onSuccess: () => notify('kadr.groups.updated', { type: 'success' }),
      }}
    >
      <SimpleForm
        toolbar={
          <EditToolbar
            successMessage="kadr.groups.deleted"
            listPath={GROUPS_LIST_PATH}
            confirmContent="kadr.groups.delete_content"
          />
        }
        resolver={zodResolver(GroupSchema)}
      >
        <Inputs />
      </SimpleForm>
    </Edit>
  );
};
