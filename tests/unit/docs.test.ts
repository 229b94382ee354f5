// The hand-written docs: every relative link in README.md, docs/*.md and bench/*.md reaches a file of this
// repository (and a heading there when it names one), and the README stays a five-minute read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';

const ROOT = resolve(__dirname, '../..');
const md = new MarkdownIt({ html: true });

const markdownFiles = () => [
  join(ROOT, 'README.md'),
  ...['docs', 'bench'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, dir, f)),
  ),
];

const inline = (tokens: Token[]) => tokens.flatMap((t) => (t.type === 'inline' ? (t.children ?? []) : []));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const tokens = md.parse(text, {});
  const seen = new Map<string, number>();
  const out = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const title = (tokens[i + 1].children ?? []).map((c) => c.content).join('');
    const slug = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  });
  return out;
}

/** The relative links of one markdown file that do not reach a file of the repository or a heading in it. */
function deadLinks(file: string, text: string): string[] {
  const hrefs = inline(md.parse(text, {}))
    .filter((t) => t.type === 'link_open' || t.type === 'image')
    .map((t) => t.attrGet(t.type === 'image' ? 'src' : 'href') ?? '');
  return hrefs.filter((href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return false; // http(s), mailto: not this test's business
    const [path, anchor] = href.split('#');
    const target = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
    const inside = !relative(ROOT, target).startsWith('..') && !/[/\\](node_modules|dist|data)[/\\]/.test(target);
    if (!inside || !existsSync(target)) return true;
    if (anchor === undefined || statSync(target).isDirectory() || !target.endsWith('.md')) return false;
    return !anchors(path ? readFileSync(target, 'utf8') : text).has(anchor);
  });
}

describe('docs', () => {
  it('finds a dead link, a link out of the repository and a missing heading (the check itself)', () => {
    const readme = join(ROOT, 'README.md');
    const text = [
      '# Kadr',
      '## Two `commands`, here!',
      '[ok](docs/configuration.md) [ok](#two-commands-here) [ok](https://example.com/x.md)',
      '[dead](docs/nothing.md) [outside](../shared/notes/video.md) [no heading](#three-commands)',
      '`[in code](nowhere.md)`',
    ].join('\n\n');
    expect(deadLinks(readme, text)).toEqual(['docs/nothing.md', '../shared/notes/video.md', '#three-commands']);
  });

  it.each(markdownFiles().map((f) => [relative(ROOT, f), f]))('%s: every relative link resolves', (_name, file) => {
    expect(deadLinks(file, readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('every page in docs/ is linked from the README or from another page', () => {
    const linked = markdownFiles().flatMap((file) =>
      inline(md.parse(readFileSync(file, 'utf8'), {}))
        .filter((t) => t.type === 'link_open')
        .map((t) => resolve(dirname(file), (t.attrGet('href') ?? '').split('#')[0])),
    );
    for (const page of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')))
      expect(linked, `a link to docs/${page}`).toContain(join(ROOT, 'docs', page));
  });

  it('the README stays a five-minute read: under 150 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(150);
  });
});
