import type { RaRecord } from 'ra-core';
import { API, pathOf } from '../contract/endpoints';
import type { Page } from '../contract/pagination';
import { aiClient } from './aiClient';
import { contract } from './contract';
import type { HttpClient } from './httpClient';
import type { AnswerSchema } from './parseAnswer';

/** The contract's schema of each answer of a resource (loaded with its domain's contract). */
type Answers = {
  /** A list row: the list answers a page of them. */
  item?: AnswerSchema<RaRecord>;
  /** A list whose page is more than its rows (it names its folder, say). */
  page?: AnswerSchema<Page<RaRecord>>;
  /** One record: read, created, updated (and deleted, unless `removed` says otherwise). */
  record?: AnswerSchema<RaRecord>;
  /** What a delete answers. */
  removed?: AnswerSchema<object>;
};

/** A react-admin resource: its API collection and the schemas of its answers. */
type Resource = {
  /** GET ?page (the list), POST (create); `/{id}`: GET, PATCH, DELETE. `:params` come from the resource name. */
  path: string;
  answers: () => Promise<Answers>;
  /** The AI service's resources go through its own client. */
  client?: HttpClient;
};

/**
 * The panel's resources. A name with `:params` is a nested list: `users/5/account` reads API.users.accounts
 * with id 5.
 */
const RESOURCES: Record<string, Resource> = {
  users: {
    path: API.users.collection,
    answers: async () => {
      const { UserRecordSchema } = await contract.users();
      return { item: UserRecordSchema, record: UserRecordSchema };
    },
  },
  'users/:id/account': {
    path: API.users.accounts,
    answers: async () => ({ item: (await contract.users()).UserAccountItemSchema }),
  },
  'users/:id/video': {
    path: API.users.videos,
    answers: async () => ({ item: (await contract.users()).UserVideoItemSchema }),
  },
  accounts: {
    path: API.accounts.collection,
    answers: async () => {
      const c = await contract.accounts();
      return { item: c.AccountListItemSchema, record: c.AccountRecordSchema, removed: c.AccountDeletedSchema };
    },
  },
  'accounts/:id/video': {
    path: API.accounts.videos,
    answers: async () => ({ item: (await contract.accounts()).AccountVideoItemSchema }),
  },
  'accounts/group': {
    path: API.groups.collection,
    answers: async () => {
      const c = await contract.groups();
      return { item: c.GroupListItemSchema, record: c.GroupRecordSchema };
    },
  },
  tags: {
    path: API.tags.collection,
    answers: async () => {
      const { TagSetRecordSchema } = await contract.tags();
      return { item: TagSetRecordSchema, record: TagSetRecordSchema };
    },
  },
  photos: {
    path: API.backgrounds.folders,
    answers: async () => {
      const { BackgroundFolderSchema } = await contract.backgrounds();
      return { item: BackgroundFolderSchema, record: BackgroundFolderSchema };
    },
  },
  /** A folder's items, paged with the folder; one item is deleted through `photo-bg`. */
  'photo-bg/:id': {
    path: API.backgrounds.folderItems,
    answers: async () => ({ page: (await contract.backgrounds()).FolderItemsPageSchema }),
  },
  'photo-bg': {
    path: API.backgrounds.items,
    answers: async () => ({ removed: (await contract.backgrounds()).BackgroundItemSchema }),
  },
  'create-video': {
    path: API.videos.requests,
    answers: async () => {
      const { CreateVideoRequestSchema } = await contract.videos();
      return { item: CreateVideoRequestSchema, record: CreateVideoRequestSchema };
    },
  },
  'upload-video': {
    path: API.publications.collection,
    answers: async () => {
      const c = await contract.publications();
      return { item: c.YouTubeItemSchema, record: c.PublicationSchema };
    },
  },
  audit: {
    path: API.audit.collection,
    answers: async () => ({ item: (await contract.audit()).AuditEntrySchema }),
  },
  jobs: {
    path: API.jobs.collection,
    answers: async () => ({ item: (await contract.jobs()).JobRecordSchema }),
  },
  'ai/info': {
    path: API.ai.sessions,
    answers: async () => {
      const c = await contract.ai();
      return { item: c.AiSessionSchema, record: c.AiSessionDetailSchema, removed: c.AiReplySchema };
    },
    client: aiClient,
  },
  'ai/info/logs': {
    path: API.ai.logs,
    answers: async () => ({ item: (await contract.ai()).AiLogSchema }),
    client: aiClient,
  },
  'ai/info/video': {
    path: API.ai.videos,
    answers: async () => ({ item: (await contract.ai()).AiVideoSchema }),
    client: aiClient,
  },
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
function unsupported(name: string, what: string): never {
  throw new Error(`The resource ${name} has no ${what}`);
}

/** The page envelope of a list's rows, made once per row schema. */
const pages = new WeakMap<AnswerSchema<RaRecord>, AnswerSchema<Page<RaRecord>>>();

/** The schema of a page of the resource's list. */
export async function pageAnswer(name: string, resource: Resource): Promise<AnswerSchema<Page<RaRecord>>> {
  const { page, item } = await resource.answers();
  if (page) return page;
  if (!item) return unsupported(name, 'list');
  let made = pages.get(item);
  if (!made) pages.set(item, (made = (await contract.http()).pageOf(item)));
  return made;
}

/** The schema of one record of the resource (read, created, updated). */
export async function recordAnswer(name: string, resource: Resource): Promise<AnswerSchema<RaRecord>> {
  return (await resource.answers()).record ?? unsupported(name, 'record');
}

/** The schema of what deleting one of the resource's records answers. */
export async function removedAnswer(name: string, resource: Resource): Promise<AnswerSchema<object>> {
  const { removed, record } = await resource.answers();
  return removed ?? record ?? unsupported(name, 'delete');
}
