import { z } from 'zod';
import { pageField } from './http';
import { toId } from './ids';
import { M } from './messages';
import { ACCOUNT_STATUSES, VIDEO_STATUSES } from './statuses';
import { REQUEST_STATUSES } from './videos';
import { PLATFORMS } from './platforms';
import { ROLES } from './roles';
import { encodeMessage } from './stored-message';
import { instantField } from './dates';
import { JOB_STATES } from './jobs';

/**
 * The query of every searchable list (issue 11): `?page&q&sort&order` plus the list's own filters. `sort` is
 * one of the list's column names (anything else is a 400 naming it and the allowed ones), `order` ASC or DESC
 * (either case); without them each list keeps its old order. `q` is trimmed; empty means no search.
 */
export const LM = {
  unknownSort: 'kadr.lists.errors.unknown_sort',
  invalidOrder: 'kadr.lists.errors.invalid_order',
  invalidDate: 'kadr.lists.errors.invalid_date',
} as const;

export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const SEARCH_MAX = 100;

const searchField = z
  .string()
  .max(SEARCH_MAX, M.tooLong)
  .optional()
  .transform((v) => v?.trim() || undefined)
  .meta({ description: 'Search text (case-insensitive substring; a number also matches the id)', example: 'київ' });

const sortField = <S extends string>(fields: readonly S[]) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      if ((fields as readonly string[]).includes(raw)) return raw as S;
      ctx.addIssue({
        code: 'custom',
        message: encodeMessage(LM.unknownSort, { field: raw, allowed: fields.join(', ') }),
      });
      return z.NEVER;
    })
    .meta({ description: `Sort column: ${fields.join(', ')}`, example: fields[0] });

const orderField = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return undefined;
    const up = raw.toUpperCase();
    if ((SORT_ORDERS as readonly string[]).includes(up)) return up as SortOrder;
    ctx.addIssue({ code: 'custom', message: LM.invalidOrder });
    return z.NEVER;
  })
  .meta({ description: 'ASC or DESC', example: 'DESC' });

/** `?userId=n`: an admin's owner filter (a user's lists are theirs anyway). */
const ownerFilter = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return undefined;
    const id = toId(raw);
    if (id < 1) ctx.addIssue({ code: 'custom', message: M.invalidId });
    return id;
  })
  .meta({ description: "Owner's user id (admins; a user sees only their own rows anyway)", example: '2' });

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values).optional());

function listQuery<S extends string, F extends z.ZodRawShape>(sorts: readonly S[], filters: F) {
  return z.object({ page: pageField, q: searchField, sort: sortField(sorts), order: orderField, ...filters });
}

/** Which profiles have a platform connected (`?platform=youtube`); `gpt` is the AI service link. */
export const PROFILE_PLATFORMS = [...PLATFORMS, 'gpt'] as const;

export const ACCOUNT_SORTS = ['id', 'name', 'user', 'status', 'createdAt'] as const;
export const AccountListQuery = listQuery(ACCOUNT_SORTS, {
  status: oneOf(ACCOUNT_STATUSES),
  platform: oneOf(PROFILE_PLATFORMS),
  userId: ownerFilter,
});

export const USER_SORTS = ['id', 'login', 'role', 'videosCount', 'accountsCount'] as const;
export const UserListQuery = listQuery(USER_SORTS, { role: oneOf(ROLES) });

export const FOLDER_SORTS = ['id', 'name', 'user', 'total', 'createdAt'] as const;
export const FolderListQuery = listQuery(FOLDER_SORTS, { userId: ownerFilter });

export const REQUEST_SORTS = ['id', 'createdAt', 'clipName', 'count', 'status', 'user'] as const;
export const RequestListQuery = listQuery(REQUEST_SORTS, { status: oneOf(REQUEST_STATUSES), userId: ownerFilter });

export const TAG_SET_SORTS = ['id', 'name', 'user'] as const;
export const TagSetListQuery = listQuery(TAG_SET_SORTS, { userId: ownerFilter });

export const GROUP_SORTS = ['id', 'name', 'accountsCount', 'user'] as const;
export const GroupListQuery = listQuery(GROUP_SORTS, { userId: ownerFilter });

const DAY_MS = 86_400_000;

/**
 * A bound of a date range filter, as epoch ms: a UTC day `YYYY-MM-DD` (its first millisecond for `from`, its last
 * for `to`: both ends inclusive, as the panel shows dates in UTC) or an instant with Z or an offset.
 */
const dateBound = (end: 'from' | 'to') =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      const day = /^\d{4}-\d{2}-\d{2}$/.test(raw);
      const parsed = instantField().safeParse(day ? `${raw}T00:00:00.000Z` : raw);
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message;
        ctx.addIssue({
          code: 'custom',
          message: message?.startsWith('kadr.validation.date_invalid') ? LM.invalidDate : (message ?? LM.invalidDate),
        });
        return z.NEVER;
      }
      const ms = Date.parse(parsed.data);
      return day && end === 'to' ? ms + DAY_MS - 1 : ms;
    })
    .meta({
      description: `${end === 'from' ? 'From' : 'Up to'} this UTC day (YYYY-MM-DD, inclusive) or instant`,
      example: '2026-12-01',
    });

export const PUBLICATION_SORTS = ['id', 'title', 'createdAt', 'user'] as const;
export const PublicationListQuery = listQuery(PUBLICATION_SORTS, {
  status: oneOf(VIDEO_STATUSES),
  userId: ownerFilter,
  /** Issue 18: publications with a video planned in the range, or going to the platform. */
  dateFrom: dateBound('from'),
  dateTo: dateBound('to'),
  platform: oneOf(PLATFORMS),
});

export const JOB_SORTS = ['id', 'kind', 'runAt', 'attempts'] as const;
/** The Jobs screen (admin-only): search the key or id, filter by kind and state. */
export const JobListQuery = listQuery(JOB_SORTS, {
  kind: z.string().max(100, M.tooLong).optional().meta({ description: "The job's kind", example: 'video.render' }),
  state: oneOf(JOB_STATES),
});

/** What a repository receives: the parsed query of one list. */
export type ListParams<S extends string = string> = { page: number; q?: string; sort?: S; order?: SortOrder };
export type AccountListParams = z.infer<typeof AccountListQuery>;
export type UserListParams = z.infer<typeof UserListQuery>;
export type FolderListParams = z.infer<typeof FolderListQuery>;
export type RequestListParams = z.infer<typeof RequestListQuery>;
export type TagSetListParams = z.infer<typeof TagSetListQuery>;
export type GroupListParams = z.infer<typeof GroupListQuery>;
export type PublicationListParams = z.infer<typeof PublicationListQuery>;
export type JobListParams = z.infer<typeof JobListQuery>;
