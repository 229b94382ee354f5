import type { RaRecord } from 'ra-core';
import type { z } from 'zod';
import {
  AccountDeletedSchema,
  AccountListItemSchema,
  AccountRecordSchema,
  AccountVideoItemSchema,
} from '../contract/accounts';
import { AiLogSchema, AiReplySchema, AiSessionDetailSchema, AiSessionSchema, AiVideoSchema } from '../contract/ai';
import { BackgroundFolderSchema, BackgroundItemSchema, FolderItemsPageSchema } from '../contract/backgrounds';
import { API, pathOf } from '../contract/endpoints';
import { GroupListItemSchema, GroupRecordSchema } from '../contract/groups';
import { pageOf } from '../contract/http';
import type { Page } from '../contract/pagination';
import { PublicationSchema, YouTubeItemSchema } from '../contract/publications';
import { TagSetRecordSchema } from '../contract/tags';
import { UserAccountItemSchema, UserRecordSchema, UserVideoItemSchema } from '../contract/users';
import { CreateVideoRequestSchema } from '../contract/videos';
import { aiClient } from './aiClient';
import type { HttpClient } from './httpClient';

/** A react-admin resource: its API collection and the contract's schema of each answer. */
type Resource = {
  /** GET ?page (the list), POST (create); `/{id}`: GET, PATCH, DELETE. `:params` come from the resource name. */
  path: string;
  /** A page of the list. */
  page?: z.ZodType<Page<RaRecord>>;
  /** One record: read, created, updated (and deleted, unless `removed` says otherwise). */
  record?: z.ZodType<RaRecord>;
  /** What a delete answers. */
  removed?: z.ZodType<object>;
  /** The AI service's resources go through its own client. */
  client?: HttpClient;
};

/**
 * The panel's resources. A name with `:params` is a nested list: `users/5/account` reads API.users.accounts
 * with id 5.
 */
const RESOURCES: Record<string, Resource> = {
  users: { path: API.users.collection, page: pageOf(UserRecordSchema), record: UserRecordSchema },
  'users/:id/account': { path: API.users.accounts, page: pageOf(UserAccountItemSchema) },
  'users/:id/video': { path: API.users.videos, page: pageOf(UserVideoItemSchema) },
  accounts: {
    path: API.accounts.collection,
    page: pageOf(AccountListItemSchema),
    record: AccountRecordSchema,
    removed: AccountDeletedSchema,
  },
  'accounts/:id/video': { path: API.accounts.videos, page: pageOf(AccountVideoItemSchema) },
  'accounts/group': { path: API.groups.collection, page: pageOf(GroupListItemSchema), record: GroupRecordSchema },
  tags: { path: API.tags.collection, page: pageOf(TagSetRecordSchema), record: TagSetRecordSchema },
  photos: { path: API.backgrounds.folders, page: pageOf(BackgroundFolderSchema), record: BackgroundFolderSchema },
  /** A folder's items, paged; one item is deleted through `photo-bg`. */
  'photo-bg/:id': { path: API.backgrounds.folderItems, page: FolderItemsPageSchema },
  'photo-bg': { path: API.backgrounds.items, removed: BackgroundItemSchema },
  'create-video': {
    path: API.videos.requests,
    page: pageOf(CreateVideoRequestSchema),
    record: CreateVideoRequestSchema,
  },
  'upload-video': { path: API.publications.collection, page: pageOf(YouTubeItemSchema), record: PublicationSchema },
  'ai/info': {
    path: API.ai.sessions,
    page: pageOf(AiSessionSchema),
    record: AiSessionDetailSchema,
    removed: AiReplySchema,
    client: aiClient,
  },
  'ai/info/logs': { path: API.ai.logs, page: pageOf(AiLogSchema), client: aiClient },
  'ai/info/video': { path: API.ai.videos, page: pageOf(AiVideoSchema), client: aiClient },
};

/** The `:params` of a resource name pattern matched against a resource name, or null. */
function match(pattern: string, name: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = name.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = value;
    else if (part !== value) return null;
  }
  return params;
}

/** A resource's collection URL and schemas. */
export function resourceOf(name: string): Resource {
  const exact = RESOURCES[name];
  if (exact) return exact;
  for (const [pattern, resource] of Object.entries(RESOURCES)) {
    const params = match(pattern, name);
    if (params) return { ...resource, path: pathOf(resource.path, params) };
  }
  throw new Error(`Unknown resource: ${name}`);
}

/** A call the resource does not offer (a nested list has no record, an item collection no list). */
export function unsupported(name: string, what: string): never {
  throw new Error(`The resource ${name} has no ${what}`);
}
