import { z } from 'zod';
import { OwnerSchema } from './http';

/** Tag-set messages (i18n keys; SPEC §5 strings live in i18n/uk.ts). */
export const TM = {
  nameRequired: 'kadr.validation.name_required',
  minOneTag: 'kadr.validation.min_one_tag',
  tooLong: 'kadr.validation.too_long',
  tooMany: 'kadr.tags.errors.too_many',
} as const;

export const TAG_MAX_LENGTH = 100;
export const TAGS_MAX_COUNT = 200;
export const TAG_SET_NAME_MAX = 100;

/** One tag as stored: trimmed and lowercased ('' when nothing is left). */
export const normalizeTag = (raw: string): string => raw.trim().toLocaleLowerCase();

/**
 * SPEC §4: tags are lowercased, trimmed and de-duplicated; empty ones are dropped. Order of first
 * appearance is kept. Pure: TagsInput uses it when a tag is added, the server on every write.
 */
export function normalizeTags(tags: readonly unknown[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags) {
    if (typeof raw !== 'string' && typeof raw !== 'number') continue;
    const tag = normalizeTag(String(raw));
    if (!tag || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
  }
  return out;
}

/**
 * What typing adds: the text is split on whitespace and commas (Space commits a tag, and a pasted
 * "a, b c" gives three), normalised and appended to the current tags without duplicates.
 */
export function addTags(current: readonly string[], typed: string): string[] {
  return normalizeTags([...current, ...typed.split(/[\s,]+/)]);
}

const nameField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : ''),
  z.string().min(1, TM.nameRequired).max(TAG_SET_NAME_MAX, TM.tooLong),
);
const tagsField = z.preprocess(
  (v) => (Array.isArray(v) ? normalizeTags(v) : []),
  z
    .array(z.string())
    .min(1, TM.minOneTag)
    .max(TAGS_MAX_COUNT, TM.tooMany)
    .refine((a) => a.every((t) => t.length <= TAG_MAX_LENGTH), { message: TM.tooLong }),
);

/** SPEC §5 tag form: name required, at least one tag. The panel's form and POST /api/tags. */
export const TagSetSchema = z
  .object({ name: nameField, tags: tagsField })
  .meta({ example: { name: 'Осінь', tags: ['осінь', 'ліс'] } });
export type TagSetBody = z.infer<typeof TagSetSchema>;

/** PATCH /api/tags/{id}: the same rules for whichever fields are sent. */
export const TagSetPatchSchema = z.object({ name: nameField.optional(), tags: tagsField.optional() });
export type TagSetPatch = z.infer<typeof TagSetPatchSchema>;

/** SPEC §3 Tag set (plus the owner, which the admin sees). */
export const TagSetRecordSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    tags: z.array(z.string()),
    user: OwnerSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'TagSet',
    example: {
      id: 3,
      name: 'Осінь',
      tags: ['осінь', 'ліс'],
      user: { id: 2, login: 'operator' },
      createdAt: '2026-01-05T10:00:00.000Z',
      updatedAt: '2026-01-05T10:00:00.000Z',
    },
  });
export type TagSetRecord = z.infer<typeof TagSetRecordSchema>;
