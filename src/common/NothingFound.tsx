import { useTranslate } from 'react-admin';

/** A list's empty state: 'Нічого не знайдено' (SPEC §2). */
export const NothingFound = ({ padding = 16 }: { padding?: number }) => (
  <div style={{ padding }}>{useTranslate()('kadr.common.nothing_found')}</div>
);
