import { DeleteWithConfirmButton, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { useDeleteToasts } from './useDeleteToasts';

type Props = { successMessage: string; confirmContent?: string; resource?: string };

/**
 * Delete with a confirmation, SPEC §8 toasts: 'Видалення ...' while it runs, then the success message or
 * the server's reason ('Помилка при видалені' when there is none), as an error-style toast. The list reloads.
 */
export const DeleteRowButton = ({ successMessage, confirmContent, resource }: Props) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const mutationOptions = useDeleteToasts(successMessage, refresh);
  if (!record) return null;
  return (
    <DeleteWithConfirmButton
      resource={resource}
      label=""
      aria-label={translate('ra.action.delete')}
      redirect={false}
      confirmTitle={translate('kadr.common.confirm_delete_title', { id: record.id })}
      confirmContent={confirmContent ?? 'kadr.common.confirm_delete_content'}
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
      mutationOptions={mutationOptions}
    />
  );
};
