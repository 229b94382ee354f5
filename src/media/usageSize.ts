import type { MediaUsage } from '../contract/media';
import { mediaSize } from './mediaSize';

type Translate = (key: string, args?: Record<string, string>) => string;

/** None of the user's files is measured yet (an older version stored them; the hourly retention pass measures them). */
export const noneMeasured = (usage: Pick<MediaUsage, 'files' | 'unmeasured'>) =>
  usage.unmeasured > 0 && usage.unmeasured >= usage.files;

/**
 * A user's media size as the panel names it: '—' while none of their files is measured yet (an older version
 * stored them; the hourly retention pass measures them), '≥ size' while some are, else the size (0 only when
 * it is known to be nothing: no files, or files measured as empty).
 */
export function usageSize(usage: Pick<MediaUsage, 'bytes' | 'files' | 'unmeasured'>, translate: Translate): string {
  if (noneMeasured(usage)) return translate('kadr.media.not_measured');
  const size = mediaSize(usage.bytes, translate);
  return usage.unmeasured > 0 ? translate('kadr.media.at_least', { size }) : size;
}
