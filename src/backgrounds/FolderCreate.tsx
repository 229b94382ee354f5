import { Create, SaveButton, SimpleForm, TextInput, Toolbar, useNotify, useRedirect, useTranslate } from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { FolderSchema } from '../contract/backgrounds';

/** /photos/create-folder: the folder form (name); 'Папка создана', then the new folder's page. */
export const FolderCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = (data: { id: number }) => {
    notify('kadr.backgrounds.folder_created', { type: 'success' });
    redirect(`/photos/${data.id}`);
  };
  return (
    <Create resource="photos" title={translate('kadr.backgrounds.new_folder')} mutationOptions={{ onSuccess }}>
      <SimpleForm
        toolbar={
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        }
        resolver={zodResolver(FolderSchema)}
        defaultValues={{ name: '' }}
      >
        <TextInput source="name" label="kadr.backgrounds.folder_name" autoComplete="off" />
      </SimpleForm>
    </Create>
  );
};
