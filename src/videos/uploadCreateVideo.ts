import { readAuth } from '../providers/authStore';
import { RefreshError, refreshOrEndSession } from '../providers/httpClient';
import { currentLocale } from '../providers/locale';
import { CREATE_VIDEO_FIELDS, type CreateVideoFields, type CreateVideoRequest } from '../contract/videos';

export type UploadProgress = { loaded: number; total: number };

/** A refused or failed request: the server's answer (message, errors per field) when there is one. */
export class CreateVideoError extends Error {
  constructor(public status: number, message: string, public body?: { message?: string; errors?: Record<string, string> }) {
    super(message);
  }
}

function send(form: FormData, onProgress: (p: UploadProgress) => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/create-video/create');
    const { accessToken } = readAuth();
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLocale());
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      let body: any;
      try { body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined; } catch { body = undefined; }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new CreateVideoError(0, 'network'));
    xhr.onabort = () => reject(new CreateVideoError(0, 'aborted'));
    xhr.send(form);
  });
}

/**
 * POST /api/create-video/create as multipart (the fields first, the file last, so the server knows the
 * options before the bytes arrive), with XMLHttpRequest so the bytes sent show. A 401 refreshes once.
 */
export async function createVideoRequest(opts: CreateVideoFields, file: File, onProgress: (p: UploadProgress) => void): Promise<CreateVideoRequest> {
  const form = new FormData();
  form.append(CREATE_VIDEO_FIELDS.count, String(opts.countVideo));
  form.append(CREATE_VIDEO_FIELDS.isVideo, String(opts.isVideo));
  form.append(CREATE_VIDEO_FIELDS.isPhoto, String(opts.isPhoto));
  form.append(CREATE_VIDEO_FIELDS.isGenerator, String(opts.isGenerator));
  for (const id of opts.folders) form.append(`${CREATE_VIDEO_FIELDS.folders}[]`, String(id));
  form.append(CREATE_VIDEO_FIELDS.file, file, file.name);
  let r = await send(form, onProgress);
  if (r.status === 401 && readAuth().refreshToken) {
    try {
      await refreshOrEndSession(); // a refused refresh signs the panel out at once
    } catch (e) {
      if (e instanceof RefreshError && !e.refused) throw new CreateVideoError(0, 'network');
      throw new CreateVideoError(401, r.body?.message ?? 'unauthorized', r.body);
    }
    onProgress({ loaded: 0, total: 0 });
    r = await send(form, onProgress);
  }
  if (r.status < 200 || r.status >= 300) throw new CreateVideoError(r.status, r.body?.message ?? String(r.status), r.body);
  return r.body as CreateVideoRequest;
}
