/** The server decides the page size; the panel uses the same constant so its page count matches. */
export const PAGE_SIZE = 10;

export type Page<T> = { data: T[]; page: number; totalPages: number; total: number };
