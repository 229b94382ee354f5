/** Row ids are 32-bit (PostgreSQL `serial`): a larger number names nothing and is refused as input. */
export const MAX_ID = 2_147_483_647;

export const isId = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_ID;

/**
 * An id given as a number, a digit string or a select option ({value} / {id}): the number, or -1 for
 * anything else (which the schemas refuse with a message naming the field).
 */
export function toId(x: unknown): number {
  if (x && typeof x === 'object')
    return toId((x as { value?: unknown; id?: unknown }).value ?? (x as { id?: unknown }).id);
  const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d{1,10}$/.test(x.trim()) ? Number(x.trim()) : -1;
  return isId(n) ? n : -1;
}
