import { readFileSync } from 'node:fs';
import { uk } from '../../i18n/uk';
import { en } from '../../i18n/en';
import { SIGN_IN_KEYS, signInMessages } from '../../i18n/signIn';
import { LoginSchema } from '../../src/contract/auth';

/** The files of the signed-out page that translate: every key they name must be in the sign-in subset. */
const SIGN_IN_PAGE = ['src/LoginApp.tsx', 'src/layout/LoginPage.tsx', 'src/layout/LanguageSwitch.tsx'];

const keysNamedIn = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/translate\(\s*'([^']+)'/g)].map((m) => m[1]!);

describe('the sign-in page’s messages', () => {
  it('hold every key the page translates, the login rules’ messages among them', () => {
    const named = SIGN_IN_PAGE.flatMap(keysNamedIn);
    expect(named).toContain('kadr.login.submit');
    const rules = LoginSchema.safeParse({ login: 'x'.repeat(51), password: '' }).error!.issues.map((i) => i.message);
    const tooShort = LoginSchema.safeParse({ login: 'x', password: 'x' }).error!.issues.map((i) => i.message);
    for (const key of [...named, ...rules, ...tooShort]) expect(SIGN_IN_KEYS).toContain(key);
  });

  it.each([
    ['uk', uk],
    ['en', en],
  ])('exist in %s, with the same text as the full file', (_, messages) => {
    const picked = signInMessages(messages);
    for (const key of SIGN_IN_KEYS) {
      const at = (m: object) => key.split('.').reduce<any>((o, p) => o?.[p], m);
      expect(at(picked)).toBe(at(messages));
      expect(typeof at(picked)).toBe('string');
    }
  });

  it('refuses a key the language lacks', () => {
    expect(() => signInMessages({ kadr: { login: {} } })).toThrow(/kadr\.login\.title/);
  });
});
