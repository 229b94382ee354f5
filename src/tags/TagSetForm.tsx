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
import { TagSetSchema } from '../contract/tags';
import { TagsInput } from '../common/TagsInput';

const Inputs = () => (
  <>
    <TextInput source="name" label="kadr.tags.fields.name" autoComplete="off" />
    <TagsInput source="tags" label="kadr.tags.fields.tags" />
  </>
);

/** The create form's Save. */
const FormToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

const toBody = ({ name, tags }: Record<string, unknown>) => ({ name, tags });

/** /tags/create: name and tags; 'Тег створено', then the list. */
export const TagSetCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('kadr.tags.created', { type: 'success' });
    redirect('/tags');
  };
  return (
    <Create title={translate('kadr.tags.create_title')} transform={toBody} mutationOptions={{ onSuccess }}>
      <SimpleForm toolbar={<FormToolbar />} resolver={zodResolver(TagSetSchema)} defaultValues={{ name: '', tags: [] }}>
        <Inputs />
      </SimpleForm>
    </Create>
  );
};

const Title = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{record ? translate('kadr.tags.edit_title', { id: record.id }) : ''}</>;
};

/** /tags/{id}: the same form; 'Тег змінено'; Delete behind the lists' confirmation. */
export const TagSetEdit = () => {
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
      mutationOptions={{ meta: { fullBody: true }, onSuccess: () => notify('kadr.tags.updated', { type: 'success' }) }}
    >
      <SimpleForm
        toolbar={<EditToolbar successMessage="kadr.tags.deleted" listPath="/tags" />}
        resolver={zodResolver(TagSetSchema)}
      >
        <Inputs />
      </SimpleForm>
    </Edit>
  );
};
