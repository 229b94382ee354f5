import { PUBLISH_STATES, type PublishState } from '../../src/contract/publications';
import type { RetentionSettings } from '../config';

/** The post states that still need the video's file: scheduled, or on its way to the platform. */
export const FILE_IN_USE: readonly PublishState[] = PUBLISH_STATES.filter(
  (s) => s !== 'published' && s !== 'failed' && s !== 'cancelled',
);

const DAY_MS = 86_400_000;

/** Epoch ms at or before which each rule's media goes (null: that rule is off). */
export type Cutoffs = { clip: number | null; unpublished: number | null; published: number | null };

export function cutoffsOf(s: RetentionSettings, nowMs: number): Cutoffs {
  const at = (days: number | undefined) => (days === undefined ? null : nowMs - days * DAY_MS);
  return { clip: at(s.clipDays), unpublished: at(s.unpublishedDays), published: at(s.publishedDays) };
}

/** Whether any rule removes anything. */
export const retentionOn = (s: RetentionSettings) =>
  s.clipDays !== undefined || s.unpublishedDays !== undefined || s.publishedDays !== undefined;
