import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describeEachDb } from '../helpers/app';

/** A built panel stand-in: index.html and one asset. */
const panelDir = mkdtempSync(join(tmpdir(), 'kadr-panel-'));
mkdirSync(join(panelDir, 'assets'));
writeFileSync(join(panelDir, 'index.html'), '<!doctype html><title>Kadr panel</title>');
writeFileSync(join(panelDir, 'assets', 'app.js'), 'console.log(1)');

/** `/api/users/:id` → `/api/users/{id}` (how @fastify/swagger names path parameters). */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');

describeEachDb('API docs', (ctx) => {
  it('describes every registered route with a response schema, a tag, and bearer auth where signed in', async () => {
    const r = await ctx.call({ method: 'GET', url: '/api/openapi.json' });
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const routes = ctx.app.apiRoutes.filter((route) => !route.schema?.hide);
    expect(routes.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const route of routes) {
      for (const method of [route.method].flat().map((m) => m.toLowerCase())) {
        if (method === 'head') continue;
        const op = doc.paths[openapiPath(route.url)]?.[method];
        const responses = Object.keys(route.schema?.response ?? {});
        if (!op) missing.push(`${method} ${route.url}: not in the document`);
        else if (!responses.length || !Object.keys(op.responses ?? {}).length)
          missing.push(`${method} ${route.url}: no response schema`);
        else if (!op.tags?.length || !op.summary) missing.push(`${method} ${route.url}: no tag or summary`);
      }
    }
    expect(missing).toEqual([]);
    expect(doc.paths['/api/users'].get.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/api-keys'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/auth/login'].post.security).toBeUndefined();
    // Rotating a webhook's secret: a session only, the grace period described, the new secret in the answer.
    const rotate = doc.paths['/api/webhooks/{id}/rotate-secret'].post;
    expect(rotate.security).toEqual([{ bearerAuth: [] }]);
    expect(rotate.description).toContain('24 hours');
    expect(JSON.stringify(rotate.responses['200'])).toContain('WebhookSecretRotated');
    expect(doc.components.schemas.WebhookSecretRotated.required).toEqual(
      expect.arrayContaining(['webhook', 'secret', 'previousSecretValidUntil']),
    );
    expect(doc.paths['/api/photo-bg'].post.requestBody.content['multipart/form-data'].schema.properties).toHaveProperty(
      'folderId',
    );
    expect(doc.paths['/api/users/{id}'].get.responses['400']).toBeDefined();
    const tags = new Set(Object.values(doc.paths).flatMap((p: any) => Object.values(p).flatMap((op: any) => op.tags)));
    expect([...tags].sort()).toEqual([
      'AI',
      'API keys',
      'Accounts',
      'Analytics',
      'Approvals',
      'Audit log',
      'Auth',
      'Backgrounds',
      'Calendar',
      'Groups',
      'Import',
      'Jobs',
      'Live updates',
      'Media',
      'OAuth',
      'Posting slots',
      'Publications',
      'Tag sets',
      'Users',
      'Videos',
      'Webhooks',
    ]);
  });

  it('lists the platforms a post may go to, in the publish body, a post action and an answer', async () => {
    const doc = (await ctx.call({ method: 'GET', url: '/api/openapi.json' })).body;
    const known = { type: 'string', enum: ['youtube', 'tiktok', 'instagram'] };
    const body = doc.paths['/api/upload-video/{id}'].post.requestBody.content['application/json'].schema;
    expect(body.properties.profiles.items.properties.platforms.items).toEqual(known);
    const retry = doc.paths['/api/upload-video/video/{videoId}/{platform}/retry'].post.parameters;
    expect(retry.find((p: { name: string }) => p.name === 'platform').schema).toMatchObject(known);
    const video = doc.components.schemas.Publication.properties.video.items;
    expect(video.properties.platforms.items.properties.platform).toEqual(known);
  });

  it("describes each video's own texts per platform: in the publish and edit bodies and the answer", async () => {
    const doc = (await ctx.call({ method: 'GET', url: '/api/openapi.json' })).body;
    const bodyOf = (method: string) =>
      doc.paths['/api/upload-video/{id}'][method].requestBody.content['application/json'].schema;
    for (const method of ['post', 'patch']) {
      const posts = bodyOf(method).properties.video.items.properties.posts;
      expect(posts.properties.tiktok.properties.caption, method).toMatchObject({ type: 'string', maxLength: 2200 });
      expect(Object.keys(posts.properties.youtube.properties).sort(), method).toEqual(['description', 'title']);
      expect(Object.keys(posts.properties.instagram.properties), method).toEqual(['caption']);
    }
    const video = doc.components.schemas.Publication.properties.video.items;
    expect(video.required).toContain('posts');
    expect(video.properties.posts.properties.tiktok.properties).toHaveProperty('caption');
  });

  it('serves the docs page, and keeps unknown API paths a JSON 404', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    // Swagger UI's script goes out compressed to a browser that accepts it, whole to one that does not.
    const script = page.body.match(/src="([^"]*swagger-ui-bundle\.js)"/)![1];
    const url = new URL(script, 'http://kadr/api/docs/').pathname;
    const plain = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const unknown = await ctx.call({ method: 'GET', url: '/api/unknown', headers: { 'accept-language': 'en' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: expect.any(String), statusCode: 404 });
    const oauth = await ctx.call({ method: 'GET', url: '/api/oauth/myspace/callback?code=x' });
    expect(oauth.status).toBe(404);
  });
});

describeEachDb(
  'API docs next to the panel',
  (ctx) => {
    it('keeps the static panel and its SPA fallback working', async () => {
      const deep = await ctx.app.inject({ method: 'GET', url: '/accounts/12' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('Kadr panel');
      const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.body).toBe('console.log(1)');
      const unknown = await ctx.call({ method: 'GET', url: '/api/unknown' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.statusCode).toBe(404);
      const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
      expect(docs.statusCode).toBe(200);
      expect(docs.body).not.toContain('Kadr panel');
    });
  },
  { panelDir },
);
