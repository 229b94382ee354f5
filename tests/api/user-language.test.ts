import { describeEachDb } from '../helpers/app';

/**
 * The interface language is the user's: PUT /api/auth/language saves it, and every sign-in answers it, so the panel
 * opens in it on any browser. A language the panel does not have is refused naming the field.
 */
describeEachDb('a user’s interface language', (ctx) => {
  const signIn = (login: string, password: string) =>
    ctx.call({ method: 'POST', url: '/api/auth/login', payload: { login, password } });

  it('is none until chosen, then comes back with every sign-in; each user has their own', async () => {
    await ctx.createUser('olena', 'olena-pass');
    await ctx.createUser('petro', 'petro-pass');
    expect((await signIn('olena', 'olena-pass')).body.language).toBeNull();

    const olena = await ctx.login('olena', 'olena-pass');
    const set = await ctx.call({
      method: 'PUT',
      url: '/api/auth/language',
      token: olena.headers,
      payload: { language: 'en' },
    });
    expect(set.status).toBe(204);
    expect((await signIn('olena', 'olena-pass')).body.language).toBe('en');
    expect((await signIn('petro', 'petro-pass')).body.language).toBeNull();

    await ctx.call({ method: 'PUT', url: '/api/auth/language', token: olena.headers, payload: { language: 'uk' } });
    expect((await signIn('olena', 'olena-pass')).body.language).toBe('uk');
  });

  it('refuses a language the panel does not have, naming the field, and asks for a session', async () => {
    const { headers } = await ctx.login('olena', 'olena-pass');
    const wrong = await ctx.call({
      method: 'PUT',
      url: '/api/auth/language',
      token: headers,
      payload: { language: 'de' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ language: 'Невірне значення' });
    expect((await signIn('olena', 'olena-pass')).body.language).toBe('uk');
    const anonymous = await ctx.call({ method: 'PUT', url: '/api/auth/language', payload: { language: 'en' } });
    expect(anonymous.status).toBe(401);
  });
});
