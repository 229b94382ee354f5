import { DeleteWithConfirmButton, SaveButton, Toolbar, useRecordContext, useRedirect } from 'react-admin';
import { useDeleteTitle } from './DeleteRowButton';
import { useDeleteToasts } from './useDeleteToasts';

/**
 * An edit form's toolbar: Save, and Delete behind the same confirmation the lists use (naming the record), with
 * SPEC §8 toasts, then back to the list. `canDelete: false` leaves Delete out (the admin's own user).
 */
export const EditToolbar = ({
  successMessage,
  listPath,
  confirmContent = 'kadr.common.confirm_delete_content',
  canDelete = true,
}: {
  successMessage: string;
  listPath: string;
  confirmContent?: string;
  canDelete?: boolean;
}) => {
  const record = useRecordContext();
  const title = useDeleteTitle();
  const redirect = useRedirect();
  const mutationOptions = useDeleteToasts(successMessage, () => redirect(listPath));
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton alwaysEnable />
      {record && canDelete && (
        <DeleteWithConfirmButton
          redirect={false}
          confirmTitle={title(record)}
          confirmContent={confirmContent}
          mutationOptions={mutationOptions}
        />
      )}
    </Toolbar>
  );
};
