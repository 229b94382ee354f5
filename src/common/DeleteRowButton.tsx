import { DeleteWithConfirmButton, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { toast } from 'react-hot-toast';
import { errorMessages } from '../providers/httpClient';

type Props = { successMessage: string; confirmContent?: string; resource?: string };

/**
 * Delete with a confirmation, SPEC §8 toasts: 'Видалення ...' while it runs, then the success message or
 * the server's reason ('Помилка при видалені' when there is none), as an error-style toast. The list reloads.
 */
export const DeleteRowButton = ({ successMessage, confirmContent, resource }: Props) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  let toastId: string | undefined;
  return (
    <DeleteWithConfirmButton
      resource={resource}
      label=""
      aria-label={translate('ra.action.delete')}
      redirect={false}
      confirmTitle={translate('kadr.common.confirm_delete_title', { id: record.id })}
      confirmContent={confirmContent ?? 'kadr.common.confirm_delete_content'}
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
      mutationOptions={{
        onMutate: () => { toastId = toast.loading(translate('kadr.notifications.deleting')); },
        onSuccess: () => { toast.dismiss(toastId); notify(successMessage, { type: 'success' }); refresh(); },
        onError: (e: unknown) => {
          toast.dismiss(toastId);
          for (const m of errorMessages(e, translate('kadr.notifications.delete_failed'))) notify(m, { type: 'error' });
        },
      }}
    />
  );
};
