import { Readable } from 'node:stream';
import { request, type Dispatcher, type FormData } from 'undici';
import { AiDriverError } from '../drivers/chat-driver';
import { kindOfStatus, networkError } from '../drivers/api-errors';

export type VideoHttpOptions = { baseUrl: string; apiKey: string; timeoutMs: number; dispatcher?: Dispatcher };

/** One call of a video provider: bearer key, JSON or multipart body, errors as AiDriverError with the provider's words. */
export async function videoCall(
  o: VideoHttpOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: { json: unknown } | { form: FormData },
): Promise<Dispatcher.ResponseData> {
  const headers: Record<string, string> = { authorization: `Bearer ${o.apiKey}` };
  let payload: string | FormData | undefined;
  if (body && 'json' in body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) payload = body.form;
  let res: Dispatcher.ResponseData;
  try {
    res = await request(`${o.baseUrl}${path}`, {
      method,
      headers,
      body: payload as never,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
    });
  } catch (err) {
    // Video providers are called directly, never through a session's proxy.
    throw networkError(err, { proxy: null, url: o.baseUrl });
  }
  if (res.statusCode >= 400) {
    const text = await res.body.text().catch(() => '');
    let detail = `HTTP ${res.statusCode}`;
    let code = '';
    try {
      const e = (JSON.parse(text) as { error?: { message?: string; code?: string } | string }).error;
      if (typeof e === 'string') detail = e;
      else if (e?.message) {
        detail = e.message;
        code = e.code ?? '';
      }
    } catch {
      /* not JSON */
    }
    throw new AiDriverError(
      kindOfStatus(res.statusCode, code),
      `kadr.ai_errors.${kindOfStatus(res.statusCode, code)}`,
      detail.slice(0, 300),
    );
  }
  return res;
}

export const videoJson = async <T>(res: Dispatcher.ResponseData): Promise<T> => (await res.body.json()) as T;
export const videoStream = (res: Dispatcher.ResponseData): Readable => res.body as unknown as Readable;
