import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthUser } from '../../src/contract/auth';
import type {
  AiChatReplySchema,
  AiLoginBody,
  AiLoginReply,
  AiProvider,
  AiReply,
  AiSessionRef,
  AiTypeBody,
} from '../../src/contract/ai';
import { PROXY_ERROR_KEYS, parseProxy } from '../../src/contract/proxy';
import type { z } from 'zod';
import type { Sealer } from '../crypto/seal';
import { ownerScope } from '../auth/guards';
import { AppError, notFound } from '../http/errors';
import type { Media } from '../media/storage/index';
import type { AiRepository, SessionRow } from './ai.repository';
import { AiLog } from './ai-log';
import type { ChatDrivers } from './drivers/index';
import type { LoginOutcome, SessionCtx } from './drivers/chat-driver';
import { plainToHtml } from './drivers/html';
import * as rec from './ai-record';

type ChatReply = z.infer<typeof AiChatReplySchema>;
const fieldError = (field: string, key: string) => new AppError(400, key, { [field]: key });
const ok = (message: string, extra = {}) => ({ success: true, message, ...extra });

/**
 * AI sessions and chat (SPEC §7 AI service): login per provider through the session's proxy, the code step,
 * stop, screenshots, chat turns stored as sanitised HTML, deleting a session. A session belongs to its
 * profile's owner, one per owner and email; admins reach all; another user's session by id or by email is a 404. Replies carry i18n
 * keys (the routes translate them); stored texts (errors, log lines) are encoded messages.
 */
export class AiService {
  /** Which provider's login waits for a code, per session (the browser driver's code step). */
  private pendingCode = new Map<number, AiProvider>();

  constructor(
    private repo: AiRepository,
    private deps: { sealer: Sealer; drivers: ChatDrivers; media: Media; log: AiLog; historyTurns: number },
  ) {}

  list(user: AuthUser, page: number, t: rec.Translate) {
    return this.repo
      .listSessions(ownerScope(user), page)
      .then((p) => ({ ...p, data: p.data.map((r) => rec.toSession(r, t)) }));
  }

  async detail(user: AuthUser, id: number, provider: AiProvider, t: rec.Translate) {
    const r = await this.find(user, { id });
    const [messages, shots] = await Promise.all([this.repo.messages(id, provider), this.repo.screenshots(id)]);
    return {
      ...rec.toSession(r, t),
      ...rec.sessionSecrets(r, this.deps.sealer),
      provider,
      messages: messages.map(rec.toMessage),
      screenshots: shots.map((s) => rec.screenshotOf(this.deps.media.signer, s)),
    };
  }

  logs(user: AuthUser, page: number, t: rec.Translate) {
    return this.repo.listLogs(ownerScope(user), page).then((p) => ({ ...p, data: p.data.map((r) => rec.toLog(r, t)) }));
  }

  /** The session `by` names, if `user` may act on it; else a 404 (see resolve). */
  async find(user: AuthUser, by: { id: number } | AiSessionRef): Promise<SessionRow> {
    const row = await this.resolve(user, by);
    if (!row) throw notFound();
    return row;
  }

  /**
   * By id: within the caller's scope; with an email too, only a session of that email. By email alone (sessions
   * are per owner): a user's own session; an admin's own, else the single session of that email; when several
   * other users have one, which is meant cannot be guessed: a 400 on `email` asking for `sessionId`.
   */
  private async resolve(user: AuthUser, by: { id: number } | AiSessionRef): Promise<SessionRow | undefined> {
    if ('id' in by) return this.repo.session(ownerScope(user), { id: by.id });
    if (by.sessionId !== undefined) return this.repo.session(ownerScope(user), { id: by.sessionId, email: by.email });
    const own = await this.repo.session(user.id, { email: by.email });
    if (own || user.role !== 'admin') return own;
    const held = await this.repo.sessionsWithEmail(by.email, 2);
    if (held.length > 1) throw fieldError('email', 'kadr.ai_errors.email_ambiguous');
    return held[0];
  }

  /**
   * POST /setting/login: upserts the profile owner's session of the email, then logs in to GPT. Sessions are
   * per owner, so whether another user has one for the email changes nothing (and cannot be told).
   */
  async login(user: AuthUser, body: AiLoginBody): Promise<AiLoginReply> {
    const proxy = body.proxy;
    const parsed = proxy ? parseProxy(proxy) : null;
    if (parsed && !parsed.ok) throw fieldError('proxy', PROXY_ERROR_KEYS[parsed.error]);
    const account = await this.repo.account(ownerScope(user), body.user.idAccount);
    if (!account) throw notFound();
    const key = { email: body.user.email };
    const existing = await this.repo.session(account.userId, key);
    const sealed = {
      userId: account.userId,
      accountId: account.id,
      passwordSealed: body.user.password ? this.deps.sealer.seal(body.user.password) : null,
      proxySealed: proxy ? this.deps.sealer.seal(proxy) : null,
      status: 'loading',
      isActive: 0,
      errorText: null,
    };
    let id: number;
    if (existing) {
      id = existing.id;
      await this.deps.drivers.gpt.stop(this.ctx(existing, 'gpt'));
      await this.repo.updateSession(id, sealed);
    } else {
      const at = new Date().toISOString();
      id = await this.repo
        .insertSession({ ...sealed, email: body.user.email, createdAt: at, updatedAt: at })
        .catch(async (err) => {
          // Two logins of a new email at once: the second updates the row the first created.
          const raced = await this.repo.session(account.userId, key);
          if (!raced) throw err;
          await this.repo.updateSession(raced.id, sealed);
          return raced.id;
        });
    }
    return this.runLogin(await this.find(user, { id }), 'gpt', (d, s) => d.login(s), 'login');
  }

  /** POST /setting/login-deepseek: the same session (by email), its DeepSeek credential, through its proxy. */
  async loginDeepSeek(user: AuthUser, body: AiSessionRef & { password: string }): Promise<AiLoginReply> {
    const row = await this.find(user, body);
    const passwordDeepseekSealed = body.password ? this.deps.sealer.seal(body.password) : null;
    await this.repo.updateSession(row.id, { passwordDeepseekSealed, status: 'loading', errorText: null });
    return this.runLogin({ ...row, passwordDeepseekSealed }, 'deepseek', (d, s) => d.login(s), 'login');
  }

  /** POST /setting/code: fills in the verification code of the login that waits for one. */
  async code(user: AuthUser, body: AiSessionRef & { code: string }): Promise<AiLoginReply> {
    const row = await this.find(user, body);
    const provider = this.pendingCode.get(row.id) ?? 'gpt';
    return this.runLogin(row, provider, (d, s) => d.submitCode(s, body.code), 'code');
  }

  private async runLogin(
    row: SessionRow,
    provider: AiProvider,
    step: (d: ChatDrivers[AiProvider], s: SessionCtx) => Promise<LoginOutcome>,
    what: 'login' | 'code',
  ): Promise<AiLoginReply> {
    const label = rec.PROVIDER_LABEL[provider];
    const out = await step(this.deps.drivers[provider], this.ctx(row, provider));
    const at = { userId: row.userId, sessionId: row.id };
    if (out.kind === 'ready') {
      this.pendingCode.delete(row.id);
      await this.repo.updateSession(row.id, { status: 'success', isActive: 1, errorText: null });
      await this.deps.log.write(at, 'success', `kadr.ai_log.${what}`, { provider: label, email: row.email });
      return { success: true, id: row.id, message: 'kadr.ai_errors.login_ok', status: 200 };
    }
    if (out.kind === 'code_required') {
      this.pendingCode.set(row.id, provider);
      await this.repo.updateSession(row.id, { status: 'loading', isActive: 0, errorText: null });
      await this.deps.log.write(at, 'loading', 'kadr.ai_log.code_needed', { provider: label });
      return { success: true, id: row.id, message: 'kadr.ai_errors.code_needed', status: 300 };
    }
    const reason = rec.driverErrorMessage(out.error, provider);
    if (out.screenshot) await this.saveShots(row.id, [{ png: out.screenshot, label: 'login' }]);
    const wasWaiting = what === 'code' && out.error.kind === 'no_code_pending';
    if (!wasWaiting) await this.repo.updateSession(row.id, { status: 'error', isActive: 0, errorText: reason });
    await this.deps.log.write(at, 'error', `kadr.ai_log.${what}_failed`, { provider: label, reason });
    return { success: false, id: row.id, message: reason, status: rec.LOGIN_STATUS[out.error.kind] };
  }

  /** POST /setting/stop: aborts what runs and closes what the session holds; the session is no longer active. */
  async stop(user: AuthUser, body: AiSessionRef): Promise<AiReply> {
    const row = await this.find(user, body);
    await this.stopDrivers(row);
    await this.repo.updateSession(row.id, { isActive: 0, status: 'noactive' });
    await this.deps.log.write({ userId: row.userId, sessionId: row.id }, 'success', 'kadr.ai_log.stop', {
      email: row.email,
    });
    return ok('kadr.ai_errors.stopped');
  }

  /** POST /setting/screenshot: screenshots of the session's open pages, kept in media storage. */
  async screenshot(user: AuthUser, body: AiSessionRef) {
    const row = await this.find(user, body);
    const shots = (
      await Promise.all((['gpt', 'deepseek'] as const).map((p) => this.deps.drivers[p].screenshot(this.ctx(row, p))))
    ).flat();
    await this.saveShots(row.id, shots);
    await this.deps.log.write(
      { userId: row.userId, sessionId: row.id },
      shots.length ? 'success' : 'error',
      'kadr.ai_log.screenshot',
      {
        email: row.email,
        count: shots.length,
      },
    );
    const all = await this.repo.screenshots(row.id);
    return {
      success: shots.length > 0,
      message: shots.length ? 'kadr.ai.screenshot_created' : 'kadr.ai_errors.no_screen',
      screenshots: all.map((s) => rec.screenshotOf(this.deps.media.signer, s)),
    };
  }

  /** POST /setting/type and /type-deepseek: one chat turn (with the Sora toggle the routes ask AiVideosService). */
  async type(user: AuthUser, body: AiTypeBody, provider: AiProvider): Promise<ChatReply> {
    const row = await this.find(user, body);
    if (!row.isActive) throw fieldError('email', 'kadr.ai_errors.not_active');
    const label = rec.PROVIDER_LABEL[provider];
    const at = { userId: row.userId, sessionId: row.id };
    const history = (await this.repo.recentMessages(row.id, provider, this.deps.historyTurns)).flatMap((m) => [
      { role: 'user' as const, text: m.textMy },
      ...(m.textAi !== null ? [{ role: 'assistant' as const, text: m.textAi }] : []),
    ]);
    try {
      const answer = await this.deps.drivers[provider].send(this.ctx(row, provider), history, body.text);
      const msg = await this.repo.insertMessage({
        sessionId: row.id,
        provider,
        messageMy: plainToHtml(body.text),
        messageAi: answer.html,
        textMy: body.text,
        textAi: answer.text,
        createdAt: new Date().toISOString(),
      });
      await this.deps.log.write(at, 'success', 'kadr.ai_log.chat', { provider: label, chars: body.text.length });
      return { ...ok('kadr.ai_errors.sent'), messages: [rec.toMessage(msg)] };
    } catch (err) {
      const reason = rec.driverErrorMessage(err, provider);
      await this.deps.log.write(at, 'error', 'kadr.ai_log.chat_failed', { provider: label, reason });
      return { success: false, message: reason, messages: [] };
    }
  }

  /** Stores one chat turn (the Sora toggle's request and its short answer). */
  async storeTurn(sessionId: number, provider: AiProvider, text: string, answerHtml: string) {
    const msg = await this.repo.insertMessage({
      sessionId,
      provider,
      messageMy: plainToHtml(text),
      messageAi: answerHtml,
      textMy: text,
      textAi: null,
      createdAt: new Date().toISOString(),
    });
    return rec.toMessage(msg);
  }

  /** DELETE /info/{id}: the session, its turns and screenshots (files too); its log lines and videos stay. */
  async remove(user: AuthUser, id: number): Promise<AiReply> {
    const row = await this.find(user, { id });
    await this.stopDrivers(row);
    const shots = await this.repo.screenshots(id);
    await this.repo.deleteSession(id);
    await Promise.all(shots.map((s) => this.deps.media.storage.delete(s.storageKey).catch(() => {})));
    this.pendingCode.delete(id);
    return ok('kadr.ai.deleted');
  }

  /** The driver's view of a session for one provider (credentials opened). */
  ctx(row: SessionRow, provider: AiProvider): SessionCtx {
    const s = rec.sessionSecrets(row, this.deps.sealer);
    const { sealer } = this.deps;
    return {
      sessionId: row.id,
      provider,
      email: row.email,
      proxy: s.proxy,
      password: provider === 'gpt' ? s.password : s.passwordDeepSeek,
      state: {
        load: async () => {
          const sealed = await this.repo.browserState(row.id, provider);
          return sealed ? sealer.open(sealed) : null;
        },
        save: (state) => this.repo.setBrowserState(row.id, provider, state === null ? null : sealer.seal(state)),
      },
    };
  }

  private async stopDrivers(row: SessionRow) {
    await Promise.all(
      (['gpt', 'deepseek'] as const).map((p) => this.deps.drivers[p].stop(this.ctx(row, p)).catch(() => {})),
    );
  }

  private async saveShots(sessionId: number, shots: { png: Buffer; label: string }[]) {
    for (const shot of shots) {
      const key = `ai/screens/${sessionId}/${randomUUID()}.png`;
      await this.deps.media.storage.put(key, Readable.from(shot.png));
      await this.repo.insertScreenshot(sessionId, key, shot.label);
    }
  }
}
