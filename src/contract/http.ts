import * as z from 'zod/mini';
import { M } from './messages';
import { toId } from './ids';

/**
 * The HTTP shapes every route shares: the error answer, id and page parameters, the page envelope. Route
 * schemas (server/<domain>/*.routes.ts) are built from these and the domain contracts; the API docs
 * (/api/docs) are generated from the same schemas. Written with zod/mini, as are the other modules every signed-in
 * screen loads (users, live, profile-identity): the panel's first screens then load zod's small core only.
 */

/** Every failure: `{ message, statusCode, errors?, code? }`, messages translated by Accept-Language. */
export const ErrorSchema = z
  .object({
    message: z.string(),
    statusCode: z.int(),
    code: z.optional(z.string()).register(z.globalRegistry, {
      description: 'a machine-readable reason, on some refusals (src/contract/error-codes.ts)',
      example: 'two_factor_enrolment_required',
    }),
    errors: z
      .optional(z.record(z.string(), z.string()))
      .register(z.globalRegistry, { description: 'field → message, one per bad field' }),
  })
  .register(z.globalRegistry, {
    id: 'Error',
    example: { message: 'Помилка валідації', statusCode: 400, errors: { login: "Обов'язкове поле" } },
  });
export type ErrorBody = z.infer<typeof ErrorSchema>;

/** Error answers by status, for a route's `response` map. */
export const errorResponses = <C extends number>(...codes: C[]) =>
  Object.fromEntries(codes.map((c) => [c, ErrorSchema])) as Record<C, typeof ErrorSchema>;

/** An empty answer, described (a 204's 'No content', a redirect's where to). */
export const noContent = (description: string) => z.undefined().register(z.globalRegistry, { description });
/** An empty answer (204). */
export const NoContent = noContent('No content');

/** `/{id}`: a positive 32-bit id; anything else is a 400 naming `field` (say `folderId`), never a 500. */
export const idParams = (field = 'id') =>
  z.pipe(
    z.object({ id: z.string().register(z.globalRegistry, { description: 'Row id (1 … 2147483647)', example: '12' }) }),
    z.transform((p: { id: string }, ctx) => {
      const id = toId(p.id);
      if (id < 1) ctx.issues.push({ code: 'custom', path: [field], message: M.invalidId, input: p });
      return { id };
    }),
  );
export const IdParams = idParams();

/** `?page=n`, 1-based; missing or empty means 1; anything else is a 400 naming `page`. */
export const pageField = z
  .pipe(
    z.optional(z.string({ error: M.invalidPage })),
    z.transform((raw: string | undefined, ctx) => {
      if (raw === undefined || raw === '') return 1;
      const n = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
      if (n < 1) ctx.issues.push({ code: 'custom', message: M.invalidPage, input: raw });
      return n;
    }),
  )
  .register(z.globalRegistry, { description: 'Page number, from 1', example: '1' });
export const PageQuery = z.object({ page: pageField });

/** The page envelope of every list. */
export const pageOf = <T extends z.core.SomeType>(item: T) =>
  z.object({ data: z.array(item), page: z.int(), totalPages: z.int(), total: z.int() });

/** Who owns a row. */
export const OwnerSchema = z.object({ id: z.int(), login: z.string() });

/** SPEC §3 Select options: what every select menu receives. */
export const SelectOptionSchema = z
  .object({ id: z.int(), title: z.string(), value: z.int() })
  .register(z.globalRegistry, { id: 'SelectOption', example: { id: 12, title: 'Канал 12', value: 12 } });
