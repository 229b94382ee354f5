import { signIn } from '../../src/providers/authStore';
import { dataProvider } from '../../src/providers/dataProvider';
import { ContractError } from '../../src/providers/parseAnswer';

/** A fake API answering each URL with the body given for it, recording what was asked. */
function fakeApi(bodies: Record<string, unknown>) {
  const asked: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    asked.push(`${init.method ?? 'GET'} ${url}`);
    if (!(url in bodies)) return new Response('{"message":"nope","statusCode":404}', { status: 404 });
    return new Response(JSON.stringify(bodies[url]), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return asked;
}

const video = { id: 7, status: 'noactive', createdAt: '2026-01-05T10:00:00.000Z', account: null };

describe('the dataProvider', () => {
  beforeEach(() => {
    localStorage.clear();
    signIn({ id: 1, login: 'a', role: 'admin' }, 'access-1', 'refresh-1');
  });

  it("reads a nested resource's list from its contract path and hands over the parsed page", async () => {
    const asked = fakeApi({
      '/api/users/5/video?page=2': { data: [{ ...video, extra: 'dropped' }], page: 2, totalPages: 3, total: 21 },
    });
    const list = await dataProvider.getList('users/5/video', { pagination: { page: 2, perPage: 10 } });
    expect(asked).toEqual(['GET /api/users/5/video?page=2']);
    expect(list).toEqual({
      data: [video],
      total: 21,
      pageInfo: { hasPreviousPage: true, hasNextPage: true },
      meta: { page: 2, totalPages: 3 },
    });
  });

  it('refuses an answer of another shape than the contract says', async () => {
    fakeApi({ '/api/users/5/video?page=1': { data: [{ ...video, id: 'seven' }], page: 1, totalPages: 1, total: 1 } });
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = await dataProvider.getList('users/5/video', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(error).toMatchObject({ call: 'GET /api/users/5/video?page=1' });
    // The mismatch itself is told to whoever opens the console.
    expect(said).toHaveBeenCalledWith(expect.stringContaining('/api/users/5/video'), expect.any(Array));
    said.mockRestore();
  });

  it('sends a custom method to its contract path, and a failure rejects with the server status', async () => {
    const asked = fakeApi({});
    const error = await dataProvider.postAction(7, 'tiktok', 'retry').catch((e: unknown) => e);
    expect(asked).toEqual(['POST /api/upload-video/video/7/tiktok/retry']);
    expect(error).toMatchObject({ status: 404, body: { message: 'nope' } });
  });
});
