import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { renderMessage } from '../contract/stored-message';

/**
 * Shows a message the server stored (a profile's error columns): a key with parameters is translated in the
 * current language, older rows holding a sentence are shown as they are.
 */
export function useStoredMessage(): (stored: string | null | undefined) => string {
  const translate = useTranslate();
  return useCallback(
    (stored) => (stored ? renderMessage(stored, (key, params) => translate(key, { _: key, ...params })) : ''),
    [translate],
  );
}
