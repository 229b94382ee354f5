import type { FastifyInstance } from 'fastify';
import { ChannelDescriptionSchema, GptIdSchema, InstagramProfileSchema, type PlatformKey } from '../../src/contract/accounts';
import { requireUser } from '../auth/guards';
import { M } from '../../src/contract/messages';
import { AppError } from '../http/errors';
import { localeOf, translate } from '../http/i18n';
import { parseId, parsePage, validate } from '../http/validate';
import type { AccountsService } from './accounts.service';

type Q = { Querystring: { page?: string; platform?: string }; Params: { id: string; platform?: string } };
const PLATFORMS: PlatformKey[] = ['youtube', 'tiktok', 'instagram'];
const isPlatform = (raw: unknown): raw is PlatformKey => PLATFORMS.includes(raw as PlatformKey);
/** A platform in the path: an unknown one is no route (404). */
const platformInPath = (raw: unknown): PlatformKey => {
  if (isPlatform(raw)) return raw;
  throw new AppError(404, 'kadr.errors.not_found');
};
/** `?platform=`: an unknown one is bad input naming the field (400). */
const platformParam = (raw: unknown): PlatformKey => {
  if (isPlatform(raw)) return raw;
  throw new AppError(400, M.validation, { platform: M.invalidValue });
};

/** SPEC §7 Accounts, plus the OAuth links and callbacks (the callbacks are public: the signed state decides). */
export async function accountsRoutes(app: FastifyInstance, { accounts }: { accounts: AccountsService }) {
  const auth = { preHandler: requireUser };
  app.get<Q>('/api/accounts', auth, async (req) => accounts.list(req.user, parsePage(req.query.page)));
  app.post('/api/accounts', auth, async (req, reply) => reply.status(201).send(await accounts.create(req.user, req.body)));
  app.get<Q>('/api/accounts/:id', auth, async (req) => accounts.get(req.user, parseId(req.params.id)));
  app.patch<Q>('/api/accounts/:id', auth, async (req) => accounts.update(req.user, parseId(req.params.id), req.body));
  app.delete<Q>('/api/accounts/:id', auth, async (req) => accounts.remove(req.user, parseId(req.params.id)));
  app.get<Q>('/api/accounts/:id/video', auth, async (req) => accounts.videos(req.user, parseId(req.params.id), parsePage(req.query.page)));
  app.patch<Q>('/api/accounts/update-channel/:id', auth, async (req) => accounts.updateChannel(req.user, parseId(req.params.id), validate(ChannelDescriptionSchema, req.body)));
  app.patch<Q>('/api/accounts/update-profile-inst/:id', auth, async (req) => {
    const r = await accounts.updateInstagramProfile(req.user, parseId(req.params.id), validate(InstagramProfileSchema, req.body));
    return { ...r, notice: translate(r.notice, localeOf(req.headers['accept-language'])) };
  });
  app.patch<Q>('/api/accounts/gpt/:id', auth, async (req) => accounts.setGpt(req.user, parseId(req.params.id), validate(GptIdSchema, req.body)));
  app.post<Q>('/api/accounts/sync/:id', auth, async (req) => accounts.syncProfile(req.user, parseId(req.params.id), platformParam(req.query.platform)));
  app.post<Q>('/api/accounts/connect-youtube/:id', auth, async (req) => accounts.authorizeUrl(req.user, parseId(req.params.id), 'youtube'));
  app.post<Q>('/api/tiktok/authorize/:id', auth, async (req) => accounts.authorizeUrl(req.user, parseId(req.params.id), 'tiktok'));
  app.post<Q>('/api/instagram/authorize/:id', auth, async (req) => accounts.authorizeUrl(req.user, parseId(req.params.id), 'instagram'));
  app.get<Q>('/api/oauth/:platform/callback', async (req, reply) => {
    const { location } = await accounts.callback(platformInPath(req.params.platform), req.query as Record<string, string | undefined>);
    return reply.header('Cache-Control', 'no-store').redirect(location, 302);
  });
}
