import { Create, SimpleForm, useNotify, useRedirect, useTranslate } from 'react-admin';
import { zodResolver } from '@hookform/resolvers/zod';
import { AccountFormSchema } from '../contract/accounts';
import { AccountInputs } from './AccountInputs';
import { operatorZone } from '../slots/operatorZone';

const DEFAULTS = {
  proxy: '',
  ipVersion: 'ipv4',
  comments: '',
  inYouTube: false,
  inInstagram: false,
  inTikTok: false,
  inGPT: false,
  // Issue 21: a new profile plans in the operator's zone unless another is picked.
  timeZone: operatorZone(),
};

/** /accounts/create: 'Профіль створено', then the saved profile opens (its authorization links need an id). */
export const AccountCreate = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      title={translate('kadr.accounts.create_title')}
      mutationOptions={{
        onSuccess: (data: { id: number }) => {
          notify('kadr.accounts.created', { type: 'success' });
          redirect('edit', 'accounts', data.id);
        },
      }}
    >
      <SimpleForm resolver={zodResolver(AccountFormSchema)} toolbar={false} defaultValues={DEFAULTS}>
        <AccountInputs mode="create" />
      </SimpleForm>
    </Create>
  );
};
