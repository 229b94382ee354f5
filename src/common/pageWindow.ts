export type PageItem = { type: 'page'; page: number } | { type: 'gap'; target: number; key: string };

/**
 * SPEC §2 Pagination: the first and last page, a window of `radius` pages each side of the current one,
 * and an ellipsis for each gap that jumps to the gap's midpoint. Empty when there is one page or none.
 */
export function pageWindow(current: number, totalPages: number, radius = 2): PageItem[] {
  if (totalPages <= 1) return [];
  const page = Math.min(Math.max(1, current), totalPages);
  const from = Math.max(2, page - radius);
  const to = Math.min(totalPages - 1, page + radius);
  const items: PageItem[] = [{ type: 'page', page: 1 }];
  // A gap hiding a single page shows that page instead of an ellipsis.
  if (from === 3) items.push({ type: 'page', page: 2 });
  else if (from > 3) items.push({ type: 'gap', target: Math.floor((1 + from) / 2), key: 'left' });
  for (let p = from; p <= to; p++) items.push({ type: 'page', page: p });
  if (to === totalPages - 2) items.push({ type: 'page', page: totalPages - 1 });
  else if (to < totalPages - 2) items.push({ type: 'gap', target: Math.ceil((to + totalPages) / 2), key: 'right' });
  items.push({ type: 'page', page: totalPages });
  return items;
}
