/** The API and panel paths of publishing. */
export const requestPath = (idUpload: string) => `/api/create-video/request/${encodeURIComponent(idUpload)}`;
export const publicationPath = (id: string | number) => `/api/upload-video/${encodeURIComponent(String(id))}`;
/** The rules of a publication date (the scheduling horizon). */
export const publishRulesPath = '/api/upload-video/rules';
export const detailPath = (idUpload: string) => `/video/youtube/${encodeURIComponent(idUpload)}`;
