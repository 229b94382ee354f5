import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { renderMessage, splitDetail, type DetailSource } from '../contract/stored-message';

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

/**
 * A stored error as the operator reads it: `message`, ours in the operator's language, and `detail`, the
 * platform's or the provider's own words (untranslated, null when none), shown apart on a line of its own
 * (ErrorDetail) rather than in the middle of a translated sentence.
 */
export function useStoredError(): (stored: string | null | undefined) => {
  message: string;
  detail: string | null;
  source: DetailSource | null;
} {
  const shown = useStoredMessage();
  return useCallback(
    (stored) => {
      if (!stored) return { message: '', detail: null, source: null };
      const { message, detail, source } = splitDetail(stored);
      return { message: shown(message), detail, source };
    },
    [shown],
  );
}
