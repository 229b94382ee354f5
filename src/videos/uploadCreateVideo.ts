import { CREATE_VIDEO_FIELDS, type CreateVideoFields, type CreateVideoRequest } from '../contract/videos';
import { uploadWithProgress, type UploadProgress } from '../providers/uploadWithProgress';

export { UploadError, type UploadProgress } from '../providers/uploadWithProgress';

/**
 * POST /api/create-video/create as multipart: the fields first, the file last, so the server knows the options
 * before the bytes arrive.
 */
export function createVideoRequest(
  opts: CreateVideoFields,
  file: File,
  onProgress: (p: UploadProgress) => void,
): Promise<CreateVideoRequest> {
  const form = new FormData();
  form.append(CREATE_VIDEO_FIELDS.count, String(opts.countVideo));
  form.append(CREATE_VIDEO_FIELDS.isVideo, String(opts.isVideo));
  form.append(CREATE_VIDEO_FIELDS.isPhoto, String(opts.isPhoto));
  form.append(CREATE_VIDEO_FIELDS.isGenerator, String(opts.isGenerator));
  for (const id of opts.folders) form.append(`${CREATE_VIDEO_FIELDS.folders}[]`, String(id));
  form.append(CREATE_VIDEO_FIELDS.file, file, file.name);
  return uploadWithProgress<CreateVideoRequest>('/api/create-video/create', form, onProgress);
}
