import { readAuth } from '../providers/authStore';
import { RefreshError, refreshOrEndSession } from '../providers/httpClient';
import { currentLocale } from '../providers/locale';
import { UPLOAD_FIELDS, type UploadResult } from '../contract/backgrounds';

export type UploadProgress = { loaded: number; total: number };

/** A failed upload: the server's answer (message, errors per file) when there is one. */
export class UploadError extends Error {
  constructor(public status: number, message: string, public body?: { message?: string; errors?: Record<string, string> }) {
    super(message);
  }
}

function send(form: FormData, onProgress: (p: UploadProgress) => void): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/photo-bg');
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
    xhr.onerror = () => reject(new UploadError(0, 'network'));
    xhr.onabort = () => reject(new UploadError(0, 'aborted'));
    xhr.send(form);
  });
}

/**
 * POST /api/photo-bg as multipart (folderId first, then files[] and videos[]) with XMLHttpRequest, so the
 * bytes sent can be shown. On a 401 the tokens are refreshed once (shared with the data provider) and the
 * upload is sent again once.
 */
export async function uploadBackgrounds(folderId: number | string, images: File[], videos: File[], onProgress: (p: UploadProgress) => void): Promise<UploadResult> {
  const form = new FormData();
  form.append(UPLOAD_FIELDS.folder, String(folderId));
  for (const f of images) form.append(`${UPLOAD_FIELDS.images}[]`, f, f.name);
  for (const f of videos) form.append(`${UPLOAD_FIELDS.videos}[]`, f, f.name);
  let r = await send(form, onProgress);
  if (r.status === 401 && readAuth().refreshToken) {
    try {
      await refreshOrEndSession(); // a refused refresh signs the panel out at once
    } catch (e) {
      if (e instanceof RefreshError && !e.refused) throw new UploadError(0, 'network');
      throw new UploadError(401, r.body?.message ?? 'unauthorized', r.body);
    }
    onProgress({ loaded: 0, total: 0 });
    r = await send(form, onProgress);
  }
  if (r.status < 200 || r.status >= 300) throw new UploadError(r.status, r.body?.message ?? String(r.status), r.body);
  return r.body as UploadResult;
}
