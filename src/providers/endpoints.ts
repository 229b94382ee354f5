/**
 * Resource name → API path. A resource not listed maps to `/api/<resource>`, which also serves nested
 * lists such as `users/5/account` (→ /api/users/5/account). Each domain adds its line.
 */
export const ENDPOINTS: Record<string, string> = {
  users: '/api/users',
  accounts: '/api/accounts',
  'accounts/group': '/api/accounts-group',
  tags: '/api/tags',
  photos: '/api/folder/photo-bg',
  'create-video': '/api/create-video',
  'upload-video': '/api/upload-video',
  // The AI service (through aiClient, see dataProvider): sessions, logs and AI videos.
  'ai/info': '/api/ai/info',
  'ai/info/logs': '/api/ai/info/logs',
  'ai/info/video': '/api/ai/info/video',
};

export const endpointOf = (resource: string) => ENDPOINTS[resource] ?? `/api/${resource}`;
