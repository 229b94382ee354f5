/** The request's own page (read-only: options, status, rendered videos), opened from a request list row. */
export const requestPagePath = (id: string | number) => `/video/request-create/${encodeURIComponent(String(id))}`;
