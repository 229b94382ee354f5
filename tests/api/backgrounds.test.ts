import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEachDb } from '../helpers/app';
import { filesUnder } from '../helpers/files-under';
import { multipart, type Part } from '../helpers/multipart';

/** Real media made with ffmpeg's lavfi sources: a PNG, a JPEG and a 1 s H.264 MP4. */
const fx = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'kadr-bg-fx-'));
  const ff = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  ff('-f', 'lavfi', '-i', 'testsrc2=s=320x240', '-frames:v', '1', join(dir, 'a.png'));
  ff('-f', 'lavfi', '-i', 'testsrc2=s=640x360', '-frames:v', '1', join(dir, 'b.jpg'));
  ff(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=320x240:r=25:d=1',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    join(dir, 'c.mp4'),
  );
  return {
    png: readFileSync(join(dir, 'a.png')),
    jpg: readFileSync(join(dir, 'b.jpg')),
    mp4: readFileSync(join(dir, 'c.mp4')),
  };
})();

describeEachDb('background folders and items API', (ctx) => {
  type Session = { authorization: string };
  let admin: Session;
  let anna: Session;
  let ivan: Session;
  let seq = 0;
  const mediaDir = () => join(ctx.tdb.dataDir, 'media');
  const upload = (token: Session, parts: Part[]) => {
    const m = multipart(parts);
    return ctx.call({ method: 'POST', url: '/api/photo-bg', token, payload: m.payload, headers: m.headers });
  };
  const rowCount = async () =>
    Number(
      (
        await ctx.tdb.db
          .selectFrom('backgroundItems')
          .select((eb) => eb.fn.countAll().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );
  /** A user of the test's own (so what other tests left behind is not in its lists): the bearer header and id. */
  const freshUser = async (name: string) => {
    const login = `${name}${++seq}`;
    await ctx.createUser(login, `${login}-pass`);
    const s = await ctx.login(login, `${login}-pass`);
    return { login, headers: s.headers, id: s.userId };
  };
  const makeFolder = async (token: Session, name = 'Folder') => {
    const r = await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token, payload: { name } });
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const uploadPng = async (token: Session, folderId: number) => {
    const r = await upload(token, [
      { name: 'folderId', value: String(folderId) },
      { name: 'files[]', filename: 'a.png', type: 'image/png', data: fx.png },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.data[0];
  };

  beforeAll(async () => {
    await ctx.createUser('boss', 'boss-pass', 'admin');
    await ctx.createUser('anna', 'anna-pass');
    await ctx.createUser('ivan', 'ivan-pass');
    admin = (await ctx.login('boss', 'boss-pass')).headers;
    anna = (await ctx.login('anna', 'anna-pass')).headers;
    ivan = (await ctx.login('ivan', 'ivan-pass')).headers;
  });

  it('needs a signed-in user', async () => {
    for (const url of ['/api/folder/photo-bg', '/api/folder/photo-bg/select', '/api/photo-bg']) {
      expect((await ctx.call({ method: 'GET', url })).status).toBe(401);
    }
  });

  it('folders: create (name required, trimmed), list, select, rename', async () => {
    const anna = await freshUser('anna');
    const ivan = await freshUser('ivan');
    let r = await ctx.call({
      method: 'POST',
      url: '/api/folder/photo-bg',
      token: anna.headers,
      payload: { name: '   ' },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова" });
    r = await ctx.call({ method: 'POST', url: '/api/folder/photo-bg', token: anna.headers, payload: {} });
    expect(r.body.errors.name).toBe("Назва обов'язкова");
    r = await ctx.call({
      method: 'POST',
      url: '/api/folder/photo-bg',
      token: anna.headers,
      payload: { name: 'x'.repeat(101) },
    });
    expect(r.body.errors.name).toBe('Занадто довго!');

    r = await ctx.call({
      method: 'POST',
      url: '/api/folder/photo-bg',
      token: anna.headers,
      payload: { name: '  Море  ' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Море', total: 0, user: { login: anna.login } });
    const annaFolder = r.body.id;
    const ivanFolder = await makeFolder(ivan.headers, 'Ivan bg');

    r = await ctx.call({ method: 'GET', url: '/api/folder/photo-bg?page=1', token: anna.headers });
    expect(r.body).toMatchObject({ page: 1, total: 1, totalPages: 1 });
    expect(r.body.data.map((f: any) => f.name)).toEqual(['Море']);
    // The admin sees everyone's folders, newest first (other tests' folders filtered out).
    const ours = (list: any[]) => list.filter((f) => f.id === annaFolder || f.id === ivanFolder);
    r = await ctx.call({ method: 'GET', url: '/api/folder/photo-bg', token: admin });
    expect(ours(r.body.data).map((f: any) => f.name)).toEqual(['Ivan bg', 'Море']);

    r = await ctx.call({ method: 'GET', url: '/api/folder/photo-bg/select', token: anna.headers });
    expect(r.body).toEqual([{ id: annaFolder, title: 'Море', value: annaFolder }]);
    r = await ctx.call({ method: 'GET', url: '/api/folder/photo-bg/select', token: admin });
    expect(ours(r.body).map((o: any) => o.id)).toEqual([ivanFolder, annaFolder]);

    r = await ctx.call({
      method: 'PATCH',
      url: `/api/folder/photo-bg/${annaFolder}`,
      token: anna.headers,
      payload: { name: '' },
    });
    expect(r.body.errors).toEqual({ name: "Назва обов'язкова" });
    r = await ctx.call({
      method: 'PATCH',
      url: `/api/folder/photo-bg/${annaFolder}`,
      token: anna.headers,
      payload: { name: 'Море 2' },
    });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Море 2');
    expect(
      (await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${annaFolder}`, token: anna.headers })).body.name,
    ).toBe('Море 2');
  });

  it("another user's folder by id is a 404 everywhere, with none of its data", async () => {
    const annaFolder = await makeFolder(anna, 'Море');
    for (const [method, url, payload] of [
      ['GET', `/api/folder/photo-bg/${annaFolder}`],
      ['PATCH', `/api/folder/photo-bg/${annaFolder}`, { name: 'mine now' }],
      ['DELETE', `/api/folder/photo-bg/${annaFolder}`],
      ['GET', `/api/photo-bg/${annaFolder}`],
    ] as const) {
      const r = await ctx.call({ method, url, token: ivan, payload: payload as any });
      expect(r.status, `${method} ${url}`).toBe(404);
      expect(r.body).toEqual({ message: 'Не знайдено', statusCode: 404 });
    }
    expect(
      (await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${annaFolder}`, token: anna })).body,
    ).toMatchObject({ name: 'Море', total: 0 });
    const before = await rowCount();
    const filesBefore = filesUnder(mediaDir()).filter((f) => !f.startsWith('.staging/'));
    const r = await upload(ivan, [
      { name: 'folderId', value: String(annaFolder) },
      { name: 'files[]', filename: 'a.png', type: 'image/png', data: fx.png },
    ]);
    expect(r.status).toBe(404);
    expect(await rowCount()).toBe(before);
    expect(filesUnder(mediaDir()).filter((f) => !f.startsWith('.staging/'))).toEqual(filesBefore);
    expect((await ctx.call({ method: 'GET', url: '/api/folder/photo-bg/abc', token: anna })).status).toBe(400);
  });

  it('uploads real images and a video: items with signed url and preview, folder total', async () => {
    const anna = await freshUser('anna');
    const ivan = await freshUser('ivan');
    const annaFolder = await makeFolder(anna.headers, 'Море');
    const r = await upload(anna.headers, [
      { name: 'folderId', value: String(annaFolder) },
      { name: 'files[]', filename: 'a.png', type: 'image/png', data: fx.png },
      { name: 'files[]', filename: 'b.jpg', type: 'image/jpeg', data: fx.jpg },
      { name: 'videos[]', filename: 'c.mp4', type: 'video/mp4', data: fx.mp4 },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data.map((i: any) => [i.type, i.name])).toEqual([
      ['image', 'a.png'],
      ['image', 'b.jpg'],
      ['video', 'c.mp4'],
    ]);
    for (const it of r.body.data) {
      expect(it.url).toMatch(/^\/api\/media\/backgrounds\/\d+\/\d+\/[0-9a-f-]+\.(png|jpg|mp4)\?exp=\d+&sig=[\w-]+$/);
      expect(it.previewUrl).toMatch(/\.thumb\.jpg\?exp=\d+&sig=/);
    }
    const video = r.body.data[2];
    const file = await ctx.call({ method: 'GET', url: video.url });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(Number(file.headers['content-length'])).toBe(fx.mp4.length);
    const preview = await ctx.app.inject({ method: 'GET', url: video.previewUrl });
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const page = await ctx.call({ method: 'GET', url: `/api/photo-bg/${annaFolder}?page=1`, token: anna.headers });
    expect(page.body).toMatchObject({ total: 3, page: 1, totalPages: 1, folder: { id: annaFolder, name: 'Море' } });
    expect(page.body.data.map((i: any) => i.type)).toEqual(['video', 'image', 'image']);
    expect(
      (await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${annaFolder}`, token: anna.headers })).body.total,
    ).toBe(3);
    // All items visible: anna sees hers, ivan none, the admin all.
    expect((await ctx.call({ method: 'GET', url: '/api/photo-bg', token: anna.headers })).body.total).toBe(3);
    expect((await ctx.call({ method: 'GET', url: '/api/photo-bg', token: ivan.headers })).body.total).toBe(0);
    expect((await ctx.call({ method: 'GET', url: '/api/photo-bg', token: admin })).body.total).toBe(await rowCount());
    expect((await ctx.call({ method: 'GET', url: `/api/photo-bg/${annaFolder}`, token: admin })).body.total).toBe(3);
  });

  it('refuses a wrong declared type, disguised files and an empty form, storing nothing', async () => {
    const annaFolder = await makeFolder(anna);
    const before = await rowCount();
    const filesBefore = filesUnder(mediaDir()).length;
    const text = Buffer.from('just some text, not a picture\n'.repeat(50));
    let r = await upload(anna, [
      { name: 'folderId', value: String(annaFolder) },
      { name: 'files[]', filename: 'notes.txt', type: 'text/plain', data: text },
    ]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      message: 'Файл повинен бути зображенням',
      statusCode: 400,
      errors: { 'files.0': 'Файл повинен бути зображенням' },
    });
    // Disguised: text named .png / .mp4 with image and video types; a valid picture alongside does not get in either.
    r = await upload(anna, [
      { name: 'folderId', value: String(annaFolder) },
      { name: 'files[]', filename: 'ok.png', type: 'image/png', data: fx.png },
      { name: 'files[]', filename: 'fake.png', type: 'image/png', data: text },
      { name: 'videos[]', filename: 'fake.mp4', type: 'video/mp4', data: text },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({
      'files.1': 'Файл повинен бути зображенням',
      'videos.0': 'Файл повинен бути відео',
    });
    // A picture sent as a video, and a video sent as a picture.
    r = await upload(anna, [
      { name: 'folderId', value: String(annaFolder) },
      { name: 'videos[]', filename: 'pic.mp4', type: 'video/mp4', data: fx.png },
      { name: 'files[]', filename: 'clip.png', type: 'image/png', data: fx.mp4 },
    ]);
    expect(r.body.errors).toEqual({
      'videos.0': 'Файл повинен бути відео',
      'files.0': 'Файл повинен бути зображенням',
    });
    r = await upload(anna, [{ name: 'folderId', value: String(annaFolder) }]);
    expect(r.body).toEqual({
      message: 'Потрібно додати хоча б одне зображення або відео',
      statusCode: 400,
      errors: { files: 'Потрібно додати хоча б одне зображення або відео' },
    });
    r = await upload(anna, [{ name: 'files[]', filename: 'a.png', type: 'image/png', data: fx.png }]);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ folderId: 'Потрібно вказати папку' });
    r = await ctx.call({ method: 'POST', url: '/api/photo-bg', token: anna, payload: { folderId: annaFolder } });
    expect(r.status).toBe(400);
    // A malformed body: the form ends without its closing boundary, or a part has a broken header.
    const m = multipart([
      { name: 'folderId', value: String(annaFolder) },
      { name: 'files[]', filename: 'a.png', type: 'image/png', data: fx.png },
    ]);
    const boundary = m.headers['content-type'].split('boundary=')[1]!;
    for (const payload of [
      m.payload.subarray(0, m.payload.length - boundary.length - 8),
      Buffer.from(`--${boundary}\r\nbroken header line\r\n\r\nx\r\n--${boundary}--\r\n`),
    ]) {
      r = await ctx.call({ method: 'POST', url: '/api/photo-bg', token: anna, payload, headers: m.headers });
      expect(r.status, payload.toString('latin1').slice(-60)).toBe(400);
      expect(r.body.message).toBeTruthy();
    }
    expect(await rowCount()).toBe(before);
    expect(filesUnder(mediaDir()).length).toBe(filesBefore);
  });

  it('deletes an item (row and files); another user cannot', async () => {
    const folder = await makeFolder(anna);
    const item = await uploadPng(anna, folder);
    expect((await ctx.call({ method: 'DELETE', url: `/api/photo-bg/${item.id}`, token: ivan })).status).toBe(404);
    const filesBefore = filesUnder(mediaDir()).length;
    const r = await ctx.call({ method: 'DELETE', url: `/api/photo-bg/${item.id}`, token: anna });
    expect(r.status).toBe(200);
    expect(filesUnder(mediaDir()).length).toBe(filesBefore - 2);
    expect((await ctx.call({ method: 'GET', url: item.url })).status).toBe(404);
    expect((await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${folder}`, token: anna })).body.total).toBe(0);
    expect((await ctx.call({ method: 'DELETE', url: `/api/photo-bg/${item.id}`, token: anna })).status).toBe(404);
  });

  it('deleting a folder deletes its items and files', async () => {
    const annaFolder = await makeFolder(anna);
    const ivanFolder = await makeFolder(ivan);
    const annaItem = await uploadPng(anna, annaFolder);
    const ivanItem = await uploadPng(ivan, ivanFolder);
    const rowsIn = async (folderId: number) =>
      (await ctx.tdb.db.selectFrom('backgroundItems').select('id').where('folderId', '=', folderId).execute()).length;
    const filesIn = (item: { url: string }) => {
      const dir = new URL(item.url, 'http://x').pathname.replace(/^\/api\/media\//, '').replace(/[^/]+$/, '');
      return filesUnder(mediaDir()).filter((f) => f.startsWith(dir));
    };
    expect(await rowsIn(annaFolder)).toBe(1);
    expect(filesIn(annaItem)).toHaveLength(2);
    const r = await ctx.call({ method: 'DELETE', url: `/api/folder/photo-bg/${annaFolder}`, token: admin });
    expect(r.status).toBe(200);
    expect(await rowsIn(annaFolder)).toBe(0);
    expect(filesIn(annaItem)).toEqual([]);
    expect((await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${annaFolder}`, token: anna })).status).toBe(
      404,
    );
    // Another folder keeps its items and files.
    expect((await ctx.call({ method: 'GET', url: `/api/folder/photo-bg/${ivanFolder}`, token: ivan })).body.total).toBe(
      1,
    );
    expect(await rowsIn(ivanFolder)).toBe(1);
    expect(filesIn(ivanItem)).toHaveLength(2);
  });

  it('pages a folder of 1,000 items (latency is in the bench)', async () => {
    const owner = await freshUser('ivan');
    const folderId = await makeFolder(owner.headers, 'Big');
    const userId = owner.id;
    const at = new Date().toISOString();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      folderId,
      userId,
      type: (i % 2 ? 'image' : 'video') as 'image' | 'video',
      storageKey: `backgrounds/${userId}/${folderId}/f${i}.jpg`,
      previewKey: `backgrounds/${userId}/${folderId}/f${i}.thumb.jpg`,
      originalName: `f${i}.jpg`,
      mime: 'image/jpeg',
      size: 10,
      width: null,
      height: null,
      duration: null,
      createdAt: at,
    }));
    for (let i = 0; i < rows.length; i += 100)
      await ctx.tdb.db
        .insertInto('backgroundItems')
        .values(rows.slice(i, i + 100))
        .execute();
    const r = await ctx.call({ method: 'GET', url: `/api/photo-bg/${folderId}?page=42`, token: owner.headers });
    expect(r.body).toMatchObject({ total: 1000, page: 42, totalPages: 42 });
    expect(r.body.data).toHaveLength(1000 - 41 * 24);
  });
});
