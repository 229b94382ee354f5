import polyglotI18nProvider from 'ra-i18n-polyglot';
import { uk } from '../../i18n/uk';
import { detailLabel, detailText } from '../../src/audit/detailText';

/**
 * The audit log's details in the reader's words (src/audit/detailText.ts): field names and the codes the server
 * writes translated, instants in the panel's UTC format, changes as `from → to`, a publication's videos by their
 * named fields; anything unknown as written.
 */
describe('audit details as a reader reads them', () => {
  const { translate } = polyglotI18nProvider(() => uk, 'uk');
  const t = (key: string, options?: Record<string, unknown>) => translate(key, options);
  const utc = (iso: string) => `UTC(${iso})`;
  const text = (field: string, value: unknown) => detailText(field, value, t, utc);

  it('names the fields in Ukrainian, and a field it does not know by itself', () => {
    expect(detailLabel('with', t)).toBe('Спосіб');
    expect(detailLabel('needsApproval', t)).toBe('Потребує схвалення');
    expect(detailLabel('somethingNew', t)).toBe('somethingNew');
  });

  it('says the codes in words: how one signed in, a role, access, platforms, webhook events, profile fields', () => {
    expect(text('with', 'password')).toBe('пароль');
    expect(text('with', 'recovery')).toBe('резервний код');
    expect(text('role', 'admin')).toBe('Адміністратор');
    expect(text('access', 'read')).toBe('Лише читання');
    expect(text('platform', 'youtube')).toBe('YouTube');
    expect(text('platforms', ['tiktok', 'instagram'])).toBe('TikTok, Instagram');
    expect(text('events', ['render.finished', 'post.failed'])).toBe('Рендер завершено, Публікація не вдалася');
    expect(text('fields', ['proxy'])).toBe('Проксі');
    // A code it has no words for, and free text, stay as written.
    expect(text('with', 'passkey')).toBe('passkey');
    expect(text('title', 'Борщ: крок 1')).toBe('Борщ: крок 1');
  });

  it('writes instants in the panel format, yes/no in words, a change as from → to, empty as a dash', () => {
    expect(text('expiresAt', '2026-11-28T10:52:36.398Z')).toBe('UTC(2026-11-28T10:52:36.398Z)');
    expect(text('needsApproval', false)).toBe('Ні');
    expect(text('required', true)).toBe('Так');
    expect(text('login', { from: 'olena', to: 'olena.k' })).toBe('olena → olena.k');
    expect(text('needsApproval', { from: false, to: true })).toBe('Ні → Так');
    expect(text('expiresAt', null)).toBe('—');
    expect(text('attempts', 4)).toBe('4');
  });

  it("a publication's videos by their named fields, one after another", () => {
    expect(
      text('videos', [
        { id: 1, account: 3, date: '2026-11-28T10:52:00.000Z' },
        { id: 2, account: 4, date: '2026-11-29T10:52:00.000Z' },
      ]),
    ).toBe(
      'ID: 1, Профіль: 3, Дата: UTC(2026-11-28T10:52:00.000Z); ID: 2, Профіль: 4, Дата: UTC(2026-11-29T10:52:00.000Z)',
    );
    expect(text('videos', [1, 2])).toBe('1, 2');
  });
});
