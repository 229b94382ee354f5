import { useRef } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { toast } from 'react-hot-toast';
import { errorMessages } from './errorMessages';

/**
 * SPEC §8 delete toasts as react-admin mutation options: 'Видалення ...' while it runs, then `successMessage`
 * and `onDone`, or the server's reason ('Помилка при видалені' when there is none) as an error-style toast.
 */
export function useDeleteToasts(successMessage: string, onDone: () => void) {
  const translate = useTranslate();
  const notify = useNotify();
  const toastId = useRef<string | undefined>(undefined);
  return {
    onMutate: () => {
      toastId.current = toast.loading(translate('kadr.notifications.deleting'));
    },
    onSuccess: () => {
      toast.dismiss(toastId.current);
      notify(successMessage, { type: 'success' });
      onDone();
    },
    onError: (e: unknown) => {
      toast.dismiss(toastId.current);
      for (const m of errorMessages(e, translate('kadr.notifications.delete_failed'))) notify(m, { type: 'error' });
    },
  };
}
