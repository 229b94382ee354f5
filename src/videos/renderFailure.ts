/**
 * Why a render failed, in the operator's words (issue 18): a stored reason that is already a message key is that
 * key; raw text (ffmpeg's or the system's, kept as the server wrote it) is sorted into a class, and the raw text
 * stays as the detail shown under it.
 */
export type RenderFailure = { key: string; detail?: string };

const CLASSES: [RegExp, string][] = [
  [/no space left|ENOSPC|disk quota/i, 'kadr.videos.errors.disk_full'],
  [
    /error while decoding|invalid data found|moov atom not found|could not find codec|corrupt/i,
    'kadr.videos.errors.clip_undecodable',
  ],
  [/ENOENT|no such file/i, 'kadr.videos.errors.file_missing'],
  [/ffmpeg|ffprobe/i, 'kadr.videos.errors.ffmpeg_failed'],
];

export const renderFailure = (stored: string): RenderFailure => {
  if (stored.startsWith('kadr.')) return { key: stored };
  const key = CLASSES.find(([re]) => re.test(stored))?.[1] ?? 'kadr.videos.errors.render_failed';
  return { key, detail: stored };
};
