import { describeEachDb } from '../helpers/app';

/**
 * Access matrix of the API key and webhook endpoints: no token → 401; an API key (an admin's, read-write) →
 * 403 everywhere; another user's webhook or key → 404 (their key list: 403); an admin reaches every webhook and
 * every user's keys (to list and revoke).
 */
describeEachDb(
  'API keys and webhooks: access matrix',
  (ctx) => {
    it('holds for every endpoint', async () => {
      await ctx.createUser('boss', 'boss-pass', 'admin');
      const annaId = await ctx.createUser('anna', 'anna-pass');
      await ctx.createUser('ivan', 'ivan-pass');
      const boss = (await ctx.login('boss', 'boss-pass')).headers;
      const anna = (await ctx.login('anna', 'anna-pass')).headers;
      const ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
      const key = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: anna,
        payload: { name: 'k', access: 'read' },
      });
      const hook = await ctx.call({
        method: 'POST',
        url: '/api/webhooks',
        token: anna,
        payload: { url: 'http://127.0.0.1:9/h', events: ['post.failed'] },
      });
      const bossKey = await ctx.call({
        method: 'POST',
        url: '/api/api-keys',
        token: boss,
        payload: { name: 'k', access: 'write' },
      });
      const viaKey = { authorization: `Bearer ${bossKey.body.token}` };
      const k = key.body.key.id;
      const w = hook.body.webhook.id;
      const endpoints = [
        { method: 'GET', url: '/api/api-keys', own: false },
        { method: 'POST', url: '/api/api-keys', payload: { name: 'x', access: 'read' }, own: false },
        { method: 'GET', url: `/api/api-keys?userId=${annaId}`, own: true, other: 403, admin: 200 },
        { method: 'DELETE', url: `/api/api-keys/${k}`, own: true, admin: 200 },
        { method: 'GET', url: '/api/webhooks', own: false },
        {
          method: 'POST',
          url: '/api/webhooks',
          payload: { url: 'http://127.0.0.1:9/x', events: ['grant.lost'] },
          own: false,
        },
        { method: 'GET', url: `/api/webhooks/${w}`, own: true, admin: 200 },
        { method: 'PATCH', url: `/api/webhooks/${w}`, payload: { enabled: true }, own: true, admin: 200 },
        { method: 'GET', url: `/api/webhooks/${w}/deliveries`, own: true, admin: 200 },
        { method: 'POST', url: `/api/webhooks/${w}/test`, own: true, admin: 200 },
        { method: 'POST', url: `/api/webhooks/${w}/rotate-secret`, own: true, admin: 200 },
        { method: 'DELETE', url: `/api/webhooks/${w}`, own: true, admin: 200 },
      ];
      for (const { own, admin, other, ...req } of endpoints as {
        method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
        url: string;
        payload?: object;
        own: boolean;
        other?: number;
        admin?: number;
      }[]) {
        const name = `${req.method} ${req.url}`;
        expect((await ctx.call({ ...req })).status, `${name} without a token`).toBe(401);
        expect((await ctx.call({ ...req, token: viaKey })).status, `${name} with a key`).toBe(403);
        if (!own) continue;
        expect((await ctx.call({ ...req, token: ivan })).status, `${name} by another user`).toBe(other ?? 404);
        expect((await ctx.call({ ...req, token: boss })).status, `${name} by an admin`).toBe(admin ?? 200);
      }
    });
  },
  { allowPrivateWebhooks: true },
);
