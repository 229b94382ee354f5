import type {
  CreateParams,
  CreateResult,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  DeleteResult,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  Identifier,
  RaRecord,
  SortPayload,
  UpdateManyParams,
  UpdateParams,
} from 'ra-core';
import { itemOf, withQuery, type Query } from '../contract/endpoints';
import type { Page } from '../contract/pagination';
import { call } from './call';
import { customMethods } from './customMethods';
import { pageAnswer, recordAnswer, removedAnswer, resourceOf } from './resources';

/**
 * `?page=n&q=…&status=…&sort=field&order=ASC|DESC`: the list params react-admin keeps in the URL, passed
 * through as the API's own query (src/contract/list-queries.ts). Lists without a sort ignore it.
 */
function listQuery(page: number | undefined, filter: Record<string, unknown> = {}, sort?: SortPayload): Query {
  const query: Query = { page: page ?? 1 };
  for (const [k, v] of Object.entries(filter)) if (v != null && v !== '') query[k] = String(v);
  if (sort?.field) {
    query.sort = sort.field;
    query.order = sort.order === 'ASC' ? 'ASC' : 'DESC';
  }
  return query;
}

// react-admin lets each caller name the record type it reads (`useGetOne<AccountRecord>`); what the provider
// hands over was parsed through that resource's contract schema, so the casts below only name it.

/** The server's page envelope → react-admin's list result (page size is the server's PAGE_SIZE). */
const fromPage = <R extends RaRecord>(p: Page<RaRecord>): GetListResult<R> => ({
  data: p.data as R[],
  total: p.total,
  pageInfo: { hasPreviousPage: p.page > 1, hasNextPage: p.page < p.totalPages },
  meta: { page: p.page, totalPages: p.totalPages },
});

/** Only the fields that changed go into a PATCH. */
function changed(data: Record<string, unknown>, prev?: Record<string, unknown>) {
  if (!prev) return data;
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(prev[k])));
}

async function readPage<R extends RaRecord>(name: string, query: Query, signal?: AbortSignal) {
  const r = resourceOf(name);
  const page = await call(pageAnswer(name, r), withQuery(r.path, query), { signal, client: r.client });
  return fromPage<R>(page);
}

async function readOne<R extends RaRecord>(name: string, id: Identifier, signal?: AbortSignal): Promise<R> {
  const r = resourceOf(name);
  const record = await call(recordAnswer(name, r), itemOf(r.path, id), { signal, client: r.client });
  return record as R;
}

async function write<R extends RaRecord>(name: string, method: 'POST' | 'PATCH', id: Identifier | null, body: unknown) {
  const r = resourceOf(name);
  const url = id === null ? r.path : itemOf(r.path, id);
  const record = await call(recordAnswer(name, r), url, { method, body, client: r.client });
  return record as R;
}

/** A delete answers the deleted record, or (an AI session) a reply without one: then the record as it was. */
async function remove<R extends RaRecord>(name: string, id: Identifier, previous?: R): Promise<R> {
  const r = resourceOf(name);
  const answer = await call(removedAnswer(name, r), itemOf(r.path, id), { method: 'DELETE', client: r.client });
  return 'id' in answer ? (answer as R) : (previous ?? ({ id } as R));
}

const crud = {
  supportAbortSignal: true,
  getList: <R extends RaRecord>(name: string, p: GetListParams) =>
    readPage<R>(name, listQuery(p.pagination?.page, p.filter, p.sort), p.signal),
  getManyReference: <R extends RaRecord>(name: string, p: GetManyReferenceParams) =>
    readPage<R>(name, listQuery(p.pagination?.page, { ...p.filter, [p.target]: p.id }), p.signal),
  getOne: async <R extends RaRecord>(name: string, p: GetOneParams<R>) => ({
    data: await readOne<R>(name, p.id, p.signal),
  }),
  getMany: async <R extends RaRecord>(name: string, p: GetManyParams<R>) => ({
    data: await Promise.all(p.ids.map((id) => readOne<R>(name, id, p.signal))),
  }),
  create: async <T extends Omit<RaRecord, 'id'>, R extends RaRecord = T & { id: Identifier }>(
    name: string,
    p: CreateParams<T>,
  ): Promise<CreateResult<R>> => ({ data: await write<R>(name, 'POST', null, p.data) }),
  update: async <R extends RaRecord>(name: string, p: UpdateParams<R>) => ({
    data: await write<R>(name, 'PATCH', p.id, p.meta?.fullBody ? p.data : changed(p.data, p.previousData)),
  }),
  updateMany: async (name: string, p: UpdateManyParams) => {
    await Promise.all(p.ids.map((id) => write(name, 'PATCH', id, p.data)));
    return { data: p.ids };
  },
  delete: async <R extends RaRecord>(name: string, p: DeleteParams<R>): Promise<DeleteResult<R>> => ({
    data: await remove(name, p.id, p.previousData),
  }),
  deleteMany: async (name: string, p: DeleteManyParams) => {
    await Promise.all(p.ids.map((id) => remove(name, id)));
    return { data: p.ids };
  },
};

/**
 * The panel's one way to the API: react-admin's CRUD methods on the resources (src/providers/resources.ts) and
 * custom methods for everything else (src/providers/customMethods.ts), each answer parsed through the contract.
 * Screens call the custom methods through `useDataProvider<KadrDataProvider>()` and react-query.
 */
export const dataProvider = { ...crud, ...customMethods } satisfies DataProvider;
export type KadrDataProvider = typeof dataProvider;
