import type { DataProvider, Identifier, RaRecord, SortPayload } from 'ra-core';
import type { Page } from '../contract/pagination';
import { endpointOf } from './endpoints';
import { httpClient, type HttpClient } from './httpClient';
import { aiClient } from './aiClient';

/** The AI service's resources (`ai/...`) go through its own client and base URL; the rest to the main API. */
const clientOf = (resource: string): HttpClient => (resource.startsWith('ai/') ? aiClient : httpClient);

const itemUrl = (resource: string, id?: Identifier) =>
  `${endpointOf(resource)}${id == null ? '' : '/' + encodeURIComponent(String(id))}`;

/**
 * `?page=n&q=…&status=…&sort=field&order=ASC|DESC`: the list params react-admin keeps in the URL, passed
 * through as the API's own query (src/contract/list-queries.ts). Lists without a sort ignore it.
 */
function listQuery(page: number | undefined, filter: Record<string, unknown> = {}, sort?: SortPayload) {
  const q = new URLSearchParams({ page: String(page ?? 1) });
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') q.set(k, String(v));
  if (sort?.field) {
    q.set('sort', sort.field);
    q.set('order', sort.order === 'ASC' ? 'ASC' : 'DESC');
  }
  return q.toString();
}

/** The server's page envelope → react-admin's list result (page size is the server's PAGE_SIZE). */
const fromPage = (p: Page<RaRecord>) => ({
  data: p.data as any[],
  total: p.total,
  pageInfo: { hasPreviousPage: p.page > 1, hasNextPage: p.page < p.totalPages },
  meta: { page: p.page, totalPages: p.totalPages },
});

/** Only the fields that changed go into a PATCH. */
function changed(data: Record<string, unknown>, prev?: Record<string, unknown>) {
  if (!prev) return data;
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(prev[k])));
}

export const dataProvider: DataProvider = {
  supportAbortSignal: true,
  getList: async (r, p) =>
    fromPage(
      (await clientOf(r)(`${itemUrl(r)}?${listQuery(p.pagination?.page, p.filter, p.sort)}`, { signal: p.signal }))
        .json,
    ),
  getManyReference: async (r, p) =>
    fromPage(
      (
        await clientOf(r)(`${itemUrl(r)}?${listQuery(p.pagination?.page, { ...p.filter, [p.target]: p.id })}`, {
          signal: p.signal,
        })
      ).json,
    ),
  getOne: async (r, p) => ({ data: (await clientOf(r)(itemUrl(r, p.id), { signal: p.signal })).json }),
  getMany: async (r, p) => ({
    data: await Promise.all(p.ids.map((id) => clientOf(r)(itemUrl(r, id), { signal: p.signal }).then((x) => x.json))),
  }),
  create: async (r, p) => ({
    data: (await clientOf(r)(itemUrl(r), { method: 'POST', body: JSON.stringify(p.data) })).json,
  }),
  update: async (r, p) => ({
    data: (
      await clientOf(r)(itemUrl(r, p.id), {
        method: 'PATCH',
        body: JSON.stringify(p.meta?.fullBody ? p.data : changed(p.data, p.previousData)),
      })
    ).json,
  }),
  updateMany: async (r, p) => {
    await Promise.all(
      p.ids.map((id) => clientOf(r)(itemUrl(r, id), { method: 'PATCH', body: JSON.stringify(p.data) })),
    );
    return { data: p.ids };
  },
  delete: async (r, p) => {
    const { json } = await clientOf(r)(itemUrl(r, p.id), { method: 'DELETE' });
    return { data: (json ?? p.previousData ?? { id: p.id }) as any };
  },
  deleteMany: async (r, p) => {
    await Promise.all(p.ids.map((id) => clientOf(r)(itemUrl(r, id), { method: 'DELETE' })));
    return { data: p.ids };
  },
};
