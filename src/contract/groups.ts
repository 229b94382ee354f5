import { z } from 'zod';
import { isId, toId } from './ids';
import { OwnerSchema, SelectOptionSchema } from './http';
import { AccountOptionSchema } from './profile-identity';

/** Group messages (i18n keys; SPEC §5 strings live in i18n/uk.ts). */
export const GM = {
  nameRequired: 'kadr.validation.name_required',
  minOneAccount: 'kadr.validation.min_one_account',
  tooLong: 'kadr.validation.too_long',
  invalidId: 'kadr.errors.invalid_id',
  accountUnavailable: 'kadr.groups.errors.account_unavailable',
  tooMany: 'kadr.groups.errors.too_many',
} as const;

export const GROUP_NAME_MAX = 100;
export const GROUP_ACCOUNTS_MAX = 1000;
/** How many options /api/accounts/search returns at most (besides a group's own members). */
export const SEARCH_LIMIT = 100;

export type SelectOption = z.infer<typeof SelectOptionSchema>;

/** The columns a profile's title is made of. */
export type AccountTitleParts = {
  id: number;
  comments?: string | null;
  titleChannel?: string | null;
  profileNameInstagram?: string | null;
  titleTikTok?: string | null;
};
/** A profile's title, the same in the profile list and in select options: channel, Instagram or TikTok name, comment, else '#id'. */
export const accountTitle = (a: AccountTitleParts) =>
  a.titleChannel?.trim() || a.profileNameInstagram?.trim() || a.titleTikTok?.trim() || a.comments?.trim() || `#${a.id}`;

const nameField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : ''),
  z.string().min(1, GM.nameRequired).max(GROUP_NAME_MAX, GM.tooLong),
);
const accountsField = z.preprocess(
  (v) => (Array.isArray(v) ? [...new Set(v.map(toId))] : []),
  z
    .array(z.number())
    .min(1, GM.minOneAccount)
    .max(GROUP_ACCOUNTS_MAX, GM.tooMany)
    .refine((a) => a.every(isId), { message: GM.invalidId }),
);

/** SPEC §5 group form: name required, at least one profile. The panel's form and POST /api/accounts-group. */
export const GroupSchema = z
  .object({ name: nameField, accounts: accountsField })
  .meta({ example: { name: 'Кулінарія', accounts: [12, 15] } });
export type GroupBody = z.infer<typeof GroupSchema>;

/** PATCH /api/accounts-group/{id}: the same rules for whichever fields are sent. */
export const GroupPatchSchema = z.object({ name: nameField.optional(), accounts: accountsField.optional() });
export type GroupPatch = z.infer<typeof GroupPatchSchema>;

/** SPEC §3 Account group (plus the owner, which the admin sees). */
export const GroupRecordSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    accounts: z.array(AccountOptionSchema),
    user: OwnerSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Group' });
export type GroupRecord = z.infer<typeof GroupRecordSchema>;

export const GroupListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  accountsCount: z.number().int(),
  user: OwnerSchema,
});
export type GroupListItem = z.infer<typeof GroupListItemSchema>;

/** GET /api/accounts/search: the profiles as select options. */
export const AccountOptionsSchema = z.array(AccountOptionSchema);

/** `?groupId=`: 0 (or missing) for a new group, else a group id (a bad one is a 400 naming `groupId`). */
export const AccountSearchQuerySchema = z.object({
  groupId: z
    .string({ error: GM.invalidId })
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '' || raw === '0') return 0;
      const id = toId(raw);
      if (id < 1) ctx.addIssue({ code: 'custom', message: GM.invalidId });
      return id;
    })
    .meta({ description: '0 or missing: a new group', example: '0' }),
  q: z
    .string({ error: GM.tooLong })
    .max(100, GM.tooLong)
    .optional()
    .transform((v) => v ?? '')
    .meta({ description: "Part of a profile's name, @handle or comment, or its id as 12 / #12" }),
});
