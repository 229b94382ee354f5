import { useRecordContext, useTranslate } from 'react-admin';
import { usageSize } from './usageSize';
import { useMediaUsage } from './useMediaUsage';

/** The users list's media column (admins): the space the row's user's media takes. */
export const MediaUsageCell = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const { data } = useMediaUsage();
  const usage = record && data?.items.find((u) => u.userId === Number(record.id));
  if (!usage) return null;
  return (
    <span
      data-testid="media-usage-cell"
      style={{ whiteSpace: 'nowrap' }}
      title={usage.unmeasured > 0 ? translate('kadr.media.unmeasured', { count: usage.unmeasured }) : undefined}
    >
      {usageSize(usage, translate)}
    </span>
  );
};
