import { useTranslate } from 'react-admin';
import type { PublishSource } from '../contract/publications';

/** How a video is named on the publish form and the publication page: its output number and its id, each said. */
export const useVideoLabel = (kind: PublishSource['kind'] | undefined) => {
  const translate = useTranslate();
  return (v: { id: number; index: number }) =>
    kind === 'ai'
      ? translate('kadr.publishing.ai_video_label', { id: v.id })
      : translate('kadr.publishing.video_n', { n: v.index + 1, id: v.id });
};
