import { readAuth, signIn } from '../../src/providers/authStore';
import { z } from 'zod';
import { ContractError } from '../../src/providers/parseAnswer';
import { UploadError, uploadWithProgress, type UploadSend } from '../../src/providers/uploadWithProgress';

/** The answer the fake upload endpoint gives on success. */
const Answer = z.object({ ok: z.boolean() });

/** A fake upload endpoint that wants the current access token, and a refresh endpoint that rotates it. */
function fakeServer(opts: { refreshOk?: boolean; answer?: { status: number; body: unknown } } = {}) {
  let valid = 'access-1';
  const sent: string[] = [];
  globalThis.fetch = (async () => {
    if (opts.refreshOk === false) return new Response('{}', { status: 401 });
    valid = 'access-2';
    return new Response(JSON.stringify({ accessToken: valid, refreshToken: 'refresh-2' }), { status: 200 });
  }) as typeof fetch;
  const send: UploadSend = async (url, _form, onProgress) => {
    sent.push(url);
    onProgress({ loaded: 10, total: 10 });
    if (readAuth().accessToken !== valid) return { status: 401, body: { message: 'expired' } };
    return opts.answer ?? { status: 201, body: { ok: true } };
  };
  return { send, sent };
}

describe('uploadWithProgress', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'access-1', 'refresh-1');
  });

  it('answers the body of a 2xx, parsed through its schema', async () => {
    const s = fakeServer();
    const progress: number[] = [];
    expect(await uploadWithProgress(Answer, '/api/x', new FormData(), (p) => progress.push(p.loaded), s.send)).toEqual({
      ok: true,
    });
    expect(s.sent).toEqual(['/api/x']);
    expect(progress).toEqual([10]);
  });

  it('on a 401 refreshes once, starts the progress over and sends again', async () => {
    const s = fakeServer();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    const progress: number[] = [];
    expect(await uploadWithProgress(Answer, '/api/x', new FormData(), (p) => progress.push(p.loaded), s.send)).toEqual({
      ok: true,
    });
    expect(s.sent).toHaveLength(2);
    expect(progress).toEqual([10, 0, 10]);
    expect(readAuth().refreshToken).toBe('refresh-2');
  });

  it('a refused refresh signs the user out and is a 401 UploadError', async () => {
    const s = fakeServer({ refreshOk: false });
    signIn({ id: 1, login: 'a', role: 'admin' }, 'stale', 'refresh-1');
    const err = await uploadWithProgress(Answer, '/api/x', new FormData(), () => {}, s.send).catch((e) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(err).toMatchObject({ status: 401, message: 'expired' });
    expect(readAuth().accessToken).toBeFalsy();
    expect(s.sent).toHaveLength(1);
  });

  it("a refused upload carries the server's message and field errors", async () => {
    const body = { message: 'Invalid', errors: { file: 'too big' } };
    const s = fakeServer({ answer: { status: 400, body } });
    const err = await uploadWithProgress(Answer, '/api/x', new FormData(), () => {}, s.send).catch((e) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect(err).toMatchObject({ status: 400, message: 'Invalid', body });
  });

  it('an answer of another shape than the contract says is a ContractError, not a value', async () => {
    const s = fakeServer({ answer: { status: 201, body: { ok: 'yes' } } });
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = await uploadWithProgress(Answer, '/api/x', new FormData(), () => {}, s.send).catch((e) => e);
    said.mockRestore();
    expect(err).toBeInstanceOf(ContractError);
    expect(err).toMatchObject({ call: 'POST /api/x', message: 'ra.notification.data_provider_error' });
  });
});
