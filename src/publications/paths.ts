/** The API and panel paths of publishing. */
export const requestPath = (idUpload: string) => `/api/create-video/request/${encodeURIComponent(idUpload)}`;
export const publicationPath = (id: string | number) => `/api/upload-video/${encodeURIComponent(String(id))}`;
/** The rules of a publication date (the scheduling horizon). */
export const publishRulesPath = '/api/upload-video/rules';
export const detailPath = (idUpload: string) => `/video/youtube/${encodeURIComponent(idUpload)}`;
/** The publish form's starting point: a request's outputs, or an AI video prefilled. */
export const requestSourcePath = (idUpload: string) => `/api/upload-video/form/${encodeURIComponent(idUpload)}`;
export const aiSourcePath = (id: number | string) => `/api/upload-video/form/ai/${encodeURIComponent(String(id))}`;
/** POST: an AI video through the publish form. */
export const aiPublicationPath = (id: number | string) => `/api/upload-video/ai/${encodeURIComponent(String(id))}`;
export const connectionsPath = (ids: readonly number[]) => `/api/upload-video/connections?accounts=${ids.join(',')}`;
/** The panel's publish form of an AI video. */
export const aiPublishPath = (id: number | string) => `/ai/video/${encodeURIComponent(String(id))}/publish`;
