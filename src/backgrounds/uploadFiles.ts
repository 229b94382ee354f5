import { UPLOAD_FIELDS, type UploadResult } from '../contract/backgrounds';
import { uploadWithProgress, type UploadProgress } from '../providers/uploadWithProgress';

export { UploadError, type UploadProgress } from '../providers/uploadWithProgress';

/** POST /api/photo-bg as multipart: folderId first, then files[] and videos[]. */
export function uploadBackgrounds(
  folderId: number | string,
  images: File[],
  videos: File[],
  onProgress: (p: UploadProgress) => void,
): Promise<UploadResult> {
  const form = new FormData();
  form.append(UPLOAD_FIELDS.folder, String(folderId));
  for (const f of images) form.append(`${UPLOAD_FIELDS.images}[]`, f, f.name);
  for (const f of videos) form.append(`${UPLOAD_FIELDS.videos}[]`, f, f.name);
  return uploadWithProgress<UploadResult>('/api/photo-bg', form, onProgress);
}
