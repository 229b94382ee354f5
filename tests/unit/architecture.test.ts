import { sources } from '../helpers/sources';

/**
 * The panel's one data path, as a rule on its files: API paths are written in src/contract/ only (the panel
 * builds its URLs from src/contract/endpoints.ts), and only src/providers/ talks to the network (the HTTP
 * clients, fetch, XMLHttpRequest, EventSource); every screen goes through the dataProvider.
 */
type Rule = { what: string; test: RegExp; allowedIn: string };

const RULES: Rule[] = [
  { what: 'an API path', test: /\/api\b/, allowedIn: 'src/contract/' },
  {
    what: 'the HTTP client',
    test: /(from\s+|import\(\s*)['"][^'"]*providers\/(httpClient|aiClient)['"]/,
    allowedIn: 'src/providers/',
  },
  {
    what: 'a network call',
    test: /\bfetch\s*\(|\bfetchUtils\b|\bXMLHttpRequest\b|\bEventSource\s*\(/,
    allowedIn: 'src/providers/',
  },
];

/** Each file's broken rules, as `path: what` (the path relative to the repository). */
function violations(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    RULES.filter((r) => !path.startsWith(r.allowedIn) && r.test.test(text)).map((r) => `${path}: ${r.what}`),
  );
}

describe('the panel architecture', () => {
  it('catches a hand-written API path, an HTTP client import and a fetch outside their places', () => {
    expect(
      violations([
        { path: 'src/users/UserList.tsx', text: 'const u = `/api/users/${id}`;' },
        { path: 'src/users/UserEdit.tsx', text: "import { httpClient } from '../providers/httpClient';" },
        { path: 'src/ai/chat.ts', text: "await fetch('/x');\nconst x = new XMLHttpRequest();" },
        { path: 'src/ai/useAiSession.ts', text: "const { aiClient } = await import('../providers/aiClient');" },
        { path: 'src/tags/TagSetList.tsx', text: 'await fetchUtils.fetchJson(url);' },
        { path: 'src/live/stream.ts', text: 'const es = new EventSource(url);' },
        // Allowed where they belong, and words that only look alike.
        { path: 'src/contract/endpoints.ts', text: "users: '/api/users'," },
        { path: 'src/providers/call.ts', text: "import { httpClient } from './httpClient'; await fetch(u);" },
        {
          path: 'src/ai/AiSessionPage.tsx',
          text: 'onChange={() => refetch()} // the AI client (src/providers/aiClient.ts) of /apiary',
        },
      ]),
    ).toEqual([
      'src/users/UserList.tsx: an API path',
      'src/users/UserEdit.tsx: the HTTP client',
      'src/ai/chat.ts: a network call',
      'src/ai/useAiSession.ts: the HTTP client',
      'src/tags/TagSetList.tsx: a network call',
      'src/live/stream.ts: a network call',
    ]);
  });

  it('holds in src/', () => {
    const files = sources('src');
    // The walk found the panel's files (a guard that read nothing would pass).
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['src/App.tsx', 'src/providers/dataProvider.ts']));
    expect(violations(files)).toEqual([]);
  });
});
