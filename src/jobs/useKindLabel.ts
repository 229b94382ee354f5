import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { jobKindKey } from '../contract/jobs';

/** A job kind as the operator reads it (`video.render` → 'Рендер відео'); a kind without a label shows its name. */
export function useKindLabel(): (kind: string) => string {
  const translate = useTranslate();
  return useCallback((kind) => translate(jobKindKey(kind), { _: kind }), [translate]);
}
