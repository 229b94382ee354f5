import type { output } from 'zod/v4/core';
import { readAuth } from './authStore';
import { errorBodyOf, type ErrorBody } from './errorBody';
import { RefreshError, refreshOrEndSession } from './httpClient';
import { currentLocale } from './locale';
import { parseAnswer, type AnswerSchema } from './parseAnswer';

export type UploadProgress = { loaded: number; total: number };

/** A refused or failed upload: the status (0 for network or abort) and the server's answer. */
export class UploadError extends Error {
  constructor(
    public status: number,
    message: string,
    public body?: ErrorBody,
  ) {
    super(message);
  }
}

/** The status and the parsed JSON answer (undefined when there is none). */
export type UploadReply = { status: number; body: unknown };
/** Sends one multipart POST and reports the bytes sent; the XMLHttpRequest one unless a test gives another. */
export type UploadSend = (url: string, form: FormData, onProgress: (p: UploadProgress) => void) => Promise<UploadReply>;

export const xhrSend: UploadSend = (url, form, onProgress) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const { accessToken } = readAuth();
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLocale());
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new UploadError(0, 'network'));
    xhr.onabort = () => reject(new UploadError(0, 'aborted'));
    xhr.send(form);
  });

/**
 * POSTs a multipart form with the bearer token and the panel's language, reporting the bytes sent (fetch cannot),
 * and parses the answer through `schema`. On a 401 the tokens are refreshed once (shared with the data provider)
 * and the form is sent again once, with the progress starting over; when the server refuses the refresh the panel
 * is signed out at once, as the data provider does, and when it cannot be asked the user stays signed in and the
 * upload fails as a network error. A non-2xx answer is an UploadError carrying the server's message and field
 * errors.
 */
export async function uploadWithProgress<S extends AnswerSchema>(
  schema: S,
  url: string,
  form: FormData,
  onProgress: (p: UploadProgress) => void,
  send: UploadSend = xhrSend,
): Promise<output<S>> {
  let r = await send(url, form, onProgress);
  if (r.status === 401 && readAuth().refreshToken) {
    try {
      await refreshOrEndSession(); // a refused refresh signs the panel out at once
    } catch (e) {
      // A server that could not be asked (network, 5xx) keeps the session: the upload failed, the user stays.
      if (e instanceof RefreshError && !e.refused) throw new UploadError(0, 'network');
      const body = errorBodyOf(r.body);
      throw new UploadError(401, body?.message ?? 'unauthorized', body);
    }
    onProgress({ loaded: 0, total: 0 });
    r = await send(url, form, onProgress);
  }
  if (r.status < 200 || r.status >= 300) {
    const body = errorBodyOf(r.body);
    throw new UploadError(r.status, body?.message ?? String(r.status), body);
  }
  return parseAnswer(schema, `POST ${url}`, r.body);
}
