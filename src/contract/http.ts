import { z } from 'zod';
import { M } from './messages';
import { toId } from './ids';

/**
 * The HTTP shapes every route shares: the error answer, id and page parameters, the page envelope. Route
 * schemas (server/<domain>/*.routes.ts) are built from these and the domain contracts; the API docs
 * (/api/docs) are generated from the same schemas.
 */

/** Every failure: `{ message, statusCode, errors? }`, messages translated by Accept-Language. */
export const ErrorSchema = z
  .object({
    message: z.string(),
    statusCode: z.number().int(),
    errors: z.record(z.string(), z.string()).optional().describe('field → message, one per bad field'),
  })
  .meta({
    id: 'Error',
    example: { message: 'Помилка валідації', statusCode: 400, errors: { login: "Обов'язкове поле" } },
  });
export type ErrorBody = z.infer<typeof ErrorSchema>;

/** Error answers by status, for a route's `response` map. */
export const errorResponses = <C extends number>(...codes: C[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorSchema])) as Record<C, typeof ErrorSchema>;

/** An empty answer (204). */
export const NoContent = z.undefined().describe('No content');

/** `/{id}`: a positive 32-bit id; anything else is a 400 naming `field` (say `folderId`), never a 500. */
export const idParams = (field = 'id') =>
  z.object({ id: z.string().meta({ description: 'Row id (1 … 2147483647)', example: '12' }) }).transform((p, ctx) => {
    const id = toId(p.id);
    if (id < 1) ctx.addIssue({ code: 'custom', path: [field], message: M.invalidId });
    return { id };
  });
export const IdParams = idParams();

/** `?page=n`, 1-based; missing or empty means 1; anything else is a 400 naming `page`. */
export const pageField = z
  .string({ error: M.invalidPage })
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw === '') return 1;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    if (n < 1) ctx.addIssue({ code: 'custom', message: M.invalidPage });
    return n;
  })
  .meta({ description: 'Page number, from 1', example: '1' });
export const PageQuery = z.object({ page: pageField });

/** The page envelope of every list. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), page: z.number().int(), totalPages: z.number().int(), total: z.number().int() });

/** Who owns a row. */
export const OwnerSchema = z.object({ id: z.number().int(), login: z.string() });

/** SPEC §3 Select options: what every select menu receives. */
export const SelectOptionSchema = z
  .object({ id: z.number().int(), title: z.string(), value: z.number().int() })
  .meta({ id: 'SelectOption', example: { id: 12, title: 'Канал 12', value: 12 } });
