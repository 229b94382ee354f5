/** The panel's paths of publishing. */
export const detailPath = (idUpload: string) => `/video/youtube/${encodeURIComponent(idUpload)}`;
/** The panel's publish form of an AI video. */
export const aiPublishPath = (id: number | string) => `/ai/video/${encodeURIComponent(String(id))}/publish`;
