import { describeEachDb } from '../helpers/app';

describeEachDb('AI sessions (smoke)', (ctx) => {
  it('lists', async () => {
    await ctx.createUser('op1', 'secret-pass');
    const op = await ctx.login('op1', 'secret-pass');
    const r = await ctx.call({ method: 'GET', url: '/api/ai/info', token: op.headers });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], page: 1, totalPages: 0, total: 0 });
    for (const url of ['/api/ai/info/logs', '/api/ai/info/video']) {
      const x = await ctx.call({ method: 'GET', url, token: op.headers });
      expect(x.status).toBe(200);
    }
    const v = await ctx.call({
      method: 'POST',
      url: '/api/ai/setting/type',
      token: op.headers,
      payload: { email: 'a@b.c', text: ' ' },
    });
    expect(v.status).toBe(400);
    console.log(v.body);
  });
});
