import type { Page } from 'playwright-core';
import type { LayoutData } from './layout-data';

/** How a screen shows it has its data: a text on it, or a value in one of its fields. */
export type Ready = { text: string } | { value: string } | { selector: string };
export type Screen = { name: string; path: () => string; ready: Ready; create?: { uk: string; en: string } };

const CREATE = { uk: 'Створити', en: 'Create' };
/** Every screen of the panel, with the layout data's records in its URLs. */
export const layoutScreens = (d: LayoutData): Screen[] => [
  { name: 'profiles', path: () => '/accounts/list', ready: { text: 'Кулінарний канал Олени' }, create: CREATE },
  // The filters shown (as the URL asks): their labels must not be cut.
  {
    name: 'profiles, filtered',
    path: () => `/accounts/list?filter=${encodeURIComponent('{"platform":"youtube","status":"success"}')}`,
    ready: { text: 'Кулінарний канал Олени' },
    create: CREATE,
  },
  { name: 'profile create', path: () => '/accounts/create', ready: { selector: 'input[name="proxy"]' } },
  { name: 'profile edit', path: () => `/accounts/${d.profiles[0]}`, ready: { text: 'Домашній яблучний пиріг' } }, // its videos' list
  { name: 'groups', path: () => '/accounts/group/list', ready: { text: 'Ранкові публікації' }, create: CREATE },
  { name: 'group create', path: () => '/accounts/group/create', ready: { selector: 'input[name="name"]' } },
  { name: 'group edit', path: () => `/accounts/group/${d.group}`, ready: { text: '#3 ·' } },
  { name: 'publications', path: () => '/video/list', ready: { text: 'Домашній яблучний пиріг' } },
  { name: 'calendar', path: () => '/calendar', ready: { selector: '.fc-view' } },
  { name: 'publication', path: () => `/video/youtube/${d.idUpload.published}`, ready: { text: 'домашня_кухня' } },
  {
    name: 'requests',
    path: () => '/video/request-create',
    ready: { selector: '[data-request="layoutready000001"]' },
    create: { uk: 'Створити відео', en: 'Create videos' },
  },
  // Ready once its outputs' comparison (a lazy chunk and a request of its own) is drawn too.
  {
    name: 'request',
    path: () => `/video/request-create/${d.requests.done}`,
    ready: { selector: '[data-variants] [data-variant]' },
  },
  {
    name: 'failed request',
    path: () => `/video/request-create/${d.requests.failed}`,
    ready: { text: 'ffmpeg exited' },
  },
  { name: 'create video', path: () => '/video/create', ready: { selector: '[data-testid="create-video-file"]' } },
  { name: 'publish form', path: () => `/video/request/${d.idUpload.ready}`, ready: { selector: 'video' } },
  { name: 'AI video publish form', path: () => `/ai/video/${d.aiVideo}/publish`, ready: { selector: 'video' } },
  // The CSV columns, each named as code with what it holds.
  { name: 'CSV import', path: () => '/video/import', ready: { selector: '[data-csv-column="video"]' } },
  { name: 'approvals', path: () => '/approvals', ready: { selector: '[data-approval]' } },
  { name: 'analytics', path: () => '/analytics', ready: { selector: '[data-total]' } },
  {
    name: 'backgrounds',
    path: () => '/photos',
    ready: { text: 'Пейзажі для фону' },
    create: { uk: 'Create folder', en: 'Create folder' }, // SPEC §2 words, in English in both
  },
  { name: 'folder', path: () => `/photos/${d.folder}`, ready: { text: 'Пейзажі для фону' } },
  { name: 'folder create', path: () => '/photos/create-folder', ready: { selector: 'input[name="name"]' } },
  { name: 'upload', path: () => `/photos/create/${d.folder}`, ready: { selector: 'input[data-zone="photo"]' } },
  { name: 'tag sets', path: () => '/tags', ready: { text: 'Кулінарія та рецепти' }, create: CREATE },
  { name: 'tag set create', path: () => '/tags/create', ready: { selector: 'input[name="name"]' } },
  { name: 'tag set edit', path: () => `/tags/${d.tagSet}`, ready: { text: 'швидкі_страви' } },
  { name: 'AI sessions', path: () => '/ai/list', ready: { text: 'olena.kovalenko.marketing.team@example.com' } },
  { name: 'AI session', path: () => `/ai/list/${d.aiSession}`, ready: { text: 'upstream_connect_error' } },
  { name: 'AI videos', path: () => '/ai/video', ready: { text: 'upstream_connect_error' } },
  { name: 'AI logs', path: () => '/ai/logs', ready: { text: 'upstream_connect_error' } },
  { name: 'users', path: () => '/users', ready: { text: 'olena.kovalenko.marketing.team' }, create: CREATE },
  { name: 'user create', path: () => '/users/create', ready: { selector: 'input[name="login"]' } },
  { name: 'user edit', path: () => `/users/${d.user}`, ready: { value: 'olena.kovalenko.marketing.team' } },
  { name: 'jobs', path: () => '/jobs', ready: { text: 'upstream_connect_error' } },
  // Entries with details (the seeded webhook's long address among them); every sign-in adds an entry above them.
  { name: 'audit log', path: () => '/audit', ready: { selector: '[data-audit-detail]' } },
  { name: 'settings', path: () => '/setting', ready: { selector: 'input[type="password"]' } },
  { name: 'not found', path: () => '/no-such-screen', ready: { text: '404' } },
];

/** Waits until the screen shows its data. */
export async function waitReady(page: Page, ready: Ready) {
  if ('text' in ready) await page.getByText(ready.text).first().waitFor();
  else if ('selector' in ready) await page.locator(ready.selector).first().waitFor();
  else
    await page.waitForFunction(
      (v) => [...document.querySelectorAll('input, textarea')].some((i) => (i as HTMLInputElement).value.includes(v)),
      ready.value,
    );
}
