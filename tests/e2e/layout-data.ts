import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { aiVideoJob, aiVideoJobKey } from '../../server/ai/ai.jobs';
import { record } from '../../server/audit/audit';
import { encodeMessage } from '../../src/contract/stored-message';
import { connectPlatform } from '../helpers/connected-tokens';
import { insertRequest } from '../helpers/db';
import type { TestServer } from '../helpers/server';
import { signedInApi } from '../helpers/server-api';

/**
 * Realistic data for the layout checks (issue 18 item 3): the long names, errors and tag lists an operator's
 * screens really hold, so a column that does not wrap widens the page the way it did for them. Seeded through
 * the API where one exists, straight in the database for what only a worker or the AI service writes.
 */
export type LayoutData = {
  profiles: number[];
  group: number;
  tagSet: number;
  folder: number;
  user: number;
  requests: { done: number; failed: number };
  idUpload: { published: string; ready: string };
  aiSession: number;
  /** An AI video ready to publish (its publish form). */
  aiVideo: number;
};

const LONG_CLIP = 'відпустка-на-морі-2026-серпень-захід-сонця-над-пляжем-повна-версія-без-монтажу-4k.mp4';
const LONG_CHANNEL = 'Кулінарний канал Олени: рецепти на кожен день, випічка та десерти';
/** A provider's long unbroken token (an Envoy 503 body), as real errors carry them. */
export const LONG_TOKEN =
  'upstream_connect_error_or_disconnect_or_reset_before_headers_reset_reason_connection_failure_transport_' +
  'failure_reason_delayed_connect_error_111';
/** A dead job's reason as the queue keeps it: raw text. */
const JOB_ERROR =
  'Не вдалося зʼєднатися з GPT через проксі сесії: Connection error.: fetch failed: getaddrinfo ENOTFOUND ' +
  `api.openai.com (the provider said: ${LONG_TOKEN})`;
/** An AI error as the AI service stores it (server/ai/ai-record.ts driverErrorMessage): ours, then the provider's words. */
export const AI_ERROR = encodeMessage('kadr.ai_errors.with_detail', {
  message: encodeMessage('kadr.ai_errors.unavailable', { provider: 'GPT' }),
  detail: LONG_TOKEN,
});

/** The rendered files only have to exist (nothing plays them here), so no ffmpeg is needed to seed. */
const mp4 = () => Buffer.from('layout test video');

export async function seedLayoutData(srv: TestServer): Promise<LayoutData> {
  const db = srv.tdb.db;
  const at = new Date().toISOString();
  const api = await signedInApi(srv);
  const adminId = (await db.selectFrom('users').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;

  const user = (await api('POST', '/api/users', { login: 'olena.kovalenko.marketing.team', password: 'olena-pass' }))
    .id as number;
  await api('POST', '/api/users', { login: 'operator', password: 'operator-pass' });

  // Three profiles of one channel name (as the issue tried it), YouTube connected, one with a dead proxy.
  const profiles: number[] = [];
  for (const [n, comments] of [
    [1, 'Олена — основний профіль для ранкових публікацій'],
    [2, 'Олена — запасний профіль (мобільний проксі, Київ)'],
    [3, 'Олена — тестовий профіль'],
  ] as const) {
    const { id } = await api('POST', '/api/accounts', {
      proxy: `http://user:pass@203.0.113.${n}:8080`,
      comments,
      inYouTube: true,
      YouTubeAuthClientId: `olena-${n}.apps.googleusercontent.com`,
      YouTubeAuthClientSecret: `olena-secret-${n}`,
    });
    await db
      .updateTable('accounts')
      .where('id', '=', id)
      .set({
        titleChannel: LONG_CHANNEL,
        urlChannel: `https://www.youtube.com/channel/UC${'x'.repeat(22)}${n}`,
        // The status the server would store once YouTube is connected (account-record.ts accountStatus): the third
        // one fails.
        status: n === 3 ? 'error' : 'success',
        ...(n === 3 ? { error: 'kadr.platform_errors.proxy_auth {"proxy":"203.0.113.3:8080"}' } : {}),
      })
      .execute();
    await connectPlatform(db, srv.app.root.sealer, id, 'youtube');
    profiles.push(id);
  }
  const group = (
    await api('POST', '/api/accounts-group', {
      name: 'Ранкові публікації кулінарних каналів (будні, 08:00–10:00)',
      accounts: profiles,
    })
  ).id as number;
  const tagSet = (
    await api('POST', '/api/tags', {
      name: 'Кулінарія та рецепти на кожен день',
      tags: ['рецепти', 'кулінарія', 'випічка', 'десерти', 'домашня_кухня', 'швидкі_страви', 'вечеря', 'сніданок'],
    })
  ).id as number;
  await api('POST', '/api/tags', { name: 'Море', tags: ['sea', 'summer'] });
  const folder = (await api('POST', '/api/folder/photo-bg', { name: 'Пейзажі для фону: море, гори, ліс і місто' }))
    .id as number;

  // Create-video requests: two finished (one to publish, one published), one failed with a long reason.
  const file = mp4();
  const request = async (idUpload: string, status: 'success' | 'error', count: number, error: string | null) => {
    const id = await insertRequest(db, adminId, idUpload, {
      status,
      count,
      isVideo: 1,
      isPhoto: 1,
      isGenerator: 1,
      folders: `[${folder}]`,
      clipName: LONG_CLIP,
      error,
      createdAt: at,
      updatedAt: at,
    });
    const videos: number[] = [];
    if (status === 'success')
      for (let i = 0; i < count; i++) {
        const storageKey = `videos/${adminId}/${idUpload}/${i}.mp4`;
        const path = join(srv.config.mediaDir, ...storageKey.split('/'));
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, file);
        const v = await db
          .insertInto('videos')
          .values({
            userId: adminId,
            createdAt: at,
            status: 'noactive',
            idUpload,
            requestId: id,
            outputIndex: i,
            storageKey,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        videos.push(v.id);
      }
    return { id, videos };
  };
  const published = await request('layoutpublished01', 'success', 2, null);
  const ready = await request('layoutready000001', 'success', 3, null);
  const failed = await request(
    'layoutfailed00001',
    'error',
    2,
    'ffmpeg exited with code 1: Error while decoding stream #0:0: Invalid data found when processing input',
  );
  const date = new Date(Date.now() + 86_400_000).toISOString();
  const title = 'Домашній яблучний пиріг за 30 хвилин: простий рецепт без міксера для всієї родини';
  const tags = ['рецепти', 'випічка', 'пиріг', 'яблука', 'домашня_кухня'];
  await api('POST', `/api/upload-video/layoutpublished01`, {
    title,
    description: 'Покроковий рецепт.',
    tags,
    accounts: profiles.slice(0, 2),
    video: published.videos.map((id, i) => ({ id, title, tags, account: profiles[i], date })),
    inYouTube: true,
    date,
  });

  // An AI session whose login failed with a long provider error, a chat turn, a video and log lines.
  const { id: aiSession } = await db
    .insertInto('aiSessions')
    .values({
      userId: adminId,
      accountId: profiles[0]!,
      email: 'olena.kovalenko.marketing.team@example.com',
      status: 'error',
      errorText: AI_ERROR,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aiMessages')
    .values({
      sessionId: aiSession,
      provider: 'gpt',
      messageMy: 'Придумай назву для відео про яблучний пиріг',
      messageAi: '<p>Домашній яблучний пиріг за 30 хвилин</p>',
      textMy: 'Придумай назву для відео про яблучний пиріг',
      textAi: 'Домашній яблучний пиріг за 30 хвилин',
      createdAt: at,
    })
    .execute();
  await db
    .insertInto('aiVideos')
    .values({
      userId: adminId,
      sessionId: aiSession,
      status: 'error',
      prompt: 'A slow pan over a freshly baked apple pie on a rustic wooden table, warm morning light',
      title,
      error: AI_ERROR,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const aiKey = `ai/${adminId}/layout-ready.mp4`;
  mkdirSync(join(srv.config.mediaDir, 'ai', String(adminId)), { recursive: true });
  writeFileSync(join(srv.config.mediaDir, ...aiKey.split('/')), file);
  const { id: aiVideo } = await db
    .insertInto('aiVideos')
    .values({
      userId: adminId,
      sessionId: aiSession,
      status: 'success',
      prompt: 'A close-up of apple slices being arranged in a spiral on pie dough, soft daylight',
      title,
      description: 'Покроковий рецепт яблучного пирога без міксера.',
      tags: JSON.stringify(tags),
      storageKey: aiKey,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aiLogs')
    .values({ userId: adminId, sessionId: aiSession, message: AI_ERROR, status: 'error', createdAt: at })
    .execute();

  // The job queue as the Jobs screen shows it: an AI video's job dead with the long error, and one a worker on a
  // long host name holds with its progress.
  const queue = srv.app.root.queue;
  await queue.enqueue(aiVideoJob, { aiVideoId: 1, attempt: 1 }, { key: aiVideoJobKey(1, 1) });
  const generating = (await queue.claim('kadr-worker-eu-central-1a-7f9c4d:48213:9a1b2c', [aiVideoJob.name], 60_000))!;
  await queue.fail(generating, JOB_ERROR, () => 0, true);
  await queue.enqueue(aiVideoJob, { aiVideoId: 2, attempt: 1 }, { key: aiVideoJobKey(2, 1), progress: 'polling:42%' });
  await queue.claim('kadr-worker-eu-central-1b-0d1e2f:51877:3c4d5e', [aiVideoJob.name], 60_000);

  // A post awaiting an admin's approval (its author's publications need approval): the approvals screen's row.
  const awaiting = await db
    .selectFrom('videoPublishes')
    .select('id')
    .where('videoId', '=', published.videos[1]!)
    .executeTakeFirstOrThrow();
  await db.updateTable('videoPublishes').set({ state: 'awaiting_approval' }).where('id', '=', awaiting.id).execute();

  // The audit log beyond what the seeding recorded: the long details real entries carry (a webhook's address, a
  // deleted publication's title, a failed sign-in from an IPv6 address, a post moved between two dates).
  const admin = { actorId: adminId, actorLogin: 'admin', ip: '203.0.113.77' };
  await record(db, {
    ...admin,
    action: 'webhook.created',
    objectType: 'webhook',
    objectId: 1,
    detail: {
      url: 'https://hooks.example.com/services/T01ABCDEF/B02GHIJKL/kadr-publications-notifications-marketing-team',
      events: ['post.published', 'post.failed', 'render.finished', 'grant.expiring'],
    },
  });
  await record(db, {
    ...admin,
    action: 'publication.deleted',
    objectType: 'publication',
    objectId: 1,
    detail: { title, videos: published.videos },
  });
  await record(db, {
    ...admin,
    action: 'publication.moved',
    objectType: 'post',
    objectId: awaiting.id,
    detail: {
      video: published.videos[1],
      platform: 'youtube',
      from: date,
      to: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    },
  });
  await record(db, {
    actorId: null,
    actorLogin: 'olena.kovalenko.marketing.team',
    action: 'auth.sign_in_failed',
    objectType: 'user',
    objectId: user,
    ip: '2001:db8:85a3:8d3:1319:8a2e:370:7348',
    detail: { reason: 'bad_password', attempts: 4 },
  });

  return {
    profiles,
    group,
    tagSet,
    folder,
    user,
    requests: { done: ready.id, failed: failed.id },
    idUpload: { published: 'layoutpublished01', ready: 'layoutready000001' },
    aiSession,
    aiVideo,
  };
}
