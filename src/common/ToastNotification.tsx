import { useEffect } from 'react';
import { Toaster, toast, useToasterStore, type Toast } from 'react-hot-toast';
import { useNotificationContext, useTranslate } from 'ra-core';

/** The one <Toaster/> (rendered at the root, so login and panel share it). SPEC §9: top centre, up to 20 at once; error/blank/custom 4000 ms, success 2000 ms, loading no time-out. */
export const TOAST_LIMIT = 20;
export const DURATIONS = { error: 4000, blank: 4000, custom: 4000, success: 2000, loading: Infinity } as const;

/** Feeds react-admin's notifications into react-hot-toast (one toast each, translated). */
export const ToastBridge = () => {
  const { notifications, setNotifications } = useNotificationContext();
  const translate = useTranslate();
  useEffect(() => {
    if (!notifications.length) return;
    for (const { message, type, notificationOptions: o = {} } of notifications) {
      const text = typeof message === 'string' ? translate(message, { _: message, ...o.messageArgs }) : message;
      if (type === 'success') toast.success(text as string);
      else if (type === 'error') toast.error(text as string);
      else toast(text as string, { icon: type === 'warning' ? '⚠️' : undefined });
    }
    setNotifications((prev) => prev.slice(notifications.length));
  }, [notifications, setNotifications, translate]);
  return null;
};

/** Keeps at most TOAST_LIMIT toasts on screen, dismissing the oldest. */
function useToastLimit() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(TOAST_LIMIT)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
}

/**
 * A success puts an end to the errors shown before it (the form's 'Форма заповнена некоректно…', a refused
 * save): the ids of the error toasts still on screen that came before the newest success. The toaster's list
 * is newest first. Later errors stay; durations stay as SPEC §9 says.
 */
export function errorsBeforeSuccess(toasts: readonly Pick<Toast, 'id' | 'type' | 'visible'>[]): string[] {
  const newestSuccess = toasts.findIndex((t) => t.visible && t.type === 'success');
  if (newestSuccess < 0) return [];
  return toasts
    .slice(newestSuccess + 1)
    .filter((t) => t.visible && t.type === 'error')
    .map((t) => t.id);
}

function useSuccessClearsErrors() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    errorsBeforeSuccess(toasts).forEach((id) => toast.dismiss(id));
  }, [toasts]);
}

/** Where the toasts start, from the window's top: under the app bar. */
export const TOASTS_TOP = 72;

export const KadrToaster = () => {
  useToastLimit();
  useSuccessClearsErrors();
  return (
    <Toaster
      position="top-center"
      // Below the app bar (56 px on a phone, 64 on a laptop), so a toast never hides the page's title.
      containerStyle={{ top: TOASTS_TOP }}
      toastOptions={{
        duration: DURATIONS.blank,
        success: { duration: DURATIONS.success },
        error: { duration: DURATIONS.error },
        loading: { duration: DURATIONS.loading },
      }}
    />
  );
};
