/**
 * The contract's schema modules, each loaded when a call first needs it: zod and the schemas stay out of the
 * panel's first load, and a screen loads its own domain's only. What they export is typed as usual.
 */
export const contract = {
  accounts: () => import('../contract/accounts'),
  ai: () => import('../contract/ai'),
  approvals: () => import('../contract/approvals'),
  analytics: () => import('../contract/analytics'),
  apiKeys: () => import('../contract/personal-keys'),
  audit: () => import('../contract/audit'),
  auth: () => import('../contract/auth'),
  backgrounds: () => import('../contract/backgrounds'),
  calendar: () => import('../contract/calendar'),
  groups: () => import('../contract/groups'),
  http: () => import('../contract/http'),
  imports: () => import('../contract/imports'),
  jobs: () => import('../contract/jobs'),
  live: () => import('../contract/live'),
  media: () => import('../contract/media'),
  platformPosts: () => import('../contract/platform-posts'),
  publications: () => import('../contract/publications'),
  slots: () => import('../contract/slots'),
  tags: () => import('../contract/tags'),
  twoFactor: () => import('../contract/two-factor'),
  users: () => import('../contract/users'),
  videos: () => import('../contract/videos'),
  webhooks: () => import('../contract/webhooks'),
};
