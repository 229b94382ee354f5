import { join } from 'node:path';

/** Where an uploaded clip of a request is stored. */
export const clipKeyOf = (userId: number, idUpload: string, ext: string) => `clips/${userId}/${idUpload}/clip.${ext}`;
/** The deterministic storage key of output `index` of a request: a re-run writes the same key, never a second file. */
export const outputKeyOf = (userId: number, idUpload: string, index: number) =>
  `videos/${userId}/${idUpload}/${index}.mp4`;
/** Local scratch folder of one request's render (ffmpeg writes here; finished files move into storage). */
export const workDirOf = (workRoot: string, requestId: number) => join(workRoot, String(requestId));
