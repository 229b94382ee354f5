import { DeleteWithConfirmButton, useRecordContext, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { useDeleteToasts } from './useDeleteToasts';

type Props = {
  successMessage: string;
  confirmContent?: string;
  resource?: string;
  /** How the dialog names the record; by default its login, name, title or email (issue 18: never a bare number). */
  nameOf?: (record: RaRecord) => string | null | undefined;
};

/** The record's own name, as the operator knows it: login, name, title or email. */
export const recordName = (r: RaRecord): string | undefined =>
  [r.login, r.name, r.title, r.email].find((v): v is string => typeof v === 'string' && v.trim() !== '')?.trim();

/** The delete dialog's title: 'Delete “name”?' when the record has a name, else 'Delete record #id?'. */
export const useDeleteTitle = () => {
  const translate = useTranslate();
  return (record: RaRecord, name = recordName(record)) =>
    name
      ? translate('kadr.common.confirm_delete_named', { name })
      : translate('kadr.common.confirm_delete_title', { id: record.id });
};

/**
 * Delete with a confirmation, SPEC §8 toasts: 'Видалення ...' while it runs, then the success message or
 * the server's reason ('Помилка при видалені' when there is none), as an error-style toast. The list reloads.
 */
export const DeleteRowButton = ({ successMessage, confirmContent, resource, nameOf }: Props) => {
  const record = useRecordContext();
  const translate = useTranslate();
  const refresh = useRefresh();
  const title = useDeleteTitle();
  const mutationOptions = useDeleteToasts(successMessage, refresh);
  if (!record) return null;
  return (
    <DeleteWithConfirmButton
      resource={resource}
      label=""
      aria-label={translate('ra.action.delete')}
      redirect={false}
      confirmTitle={title(record, (nameOf ?? recordName)(record) ?? undefined)}
      confirmContent={confirmContent ?? 'kadr.common.confirm_delete_content'}
      onClick={(e: React.MouseEvent) => e.stopPropagation()}
      mutationOptions={mutationOptions}
    />
  );
};
