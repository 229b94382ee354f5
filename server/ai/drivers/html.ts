import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Chat text → the HTML the panel shows. The model's markdown is rendered with raw HTML off (a `<script>` in
 * an answer becomes text), then sanitised with an allow-list anyway (the browser driver reads a page's HTML).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

/**
 * What chat HTML may keep on its way to the panel (a rendered answer, or a turn read off a site's page by the
 * browser driver): the markup of rendered
 * Markdown (paragraphs, lists, emphasis, code, tables, quotes, headings, links) and nothing that runs or loads:
 * no scripts, styles, event handlers, iframes, forms, images or inline SVG. Links keep http(s)/mailto only and
 * open in a new tab without an opener.
 */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'sub',
    'sup',
    'code',
    'pre',
    'kbd',
    'blockquote',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'a',
    'span',
    'div',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], code: ['class'], th: ['align'], td: ['align'] },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'svg', 'button', 'title'],
  // Runs before the attribute filter and overwrites whatever target/rel the site had.
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }, true),
  },
};

/** Sanitises HTML from anywhere (a page read by the browser driver) to the chat allow-list. */
export const sanitizeChatHtml = (html: string): string => sanitizeHtml(html, ALLOWED).trim();

/** The model's answer (markdown) as sanitised HTML. */
export const markdownToHtml = (text: string): string => sanitizeChatHtml(md.render(text));

/** What the operator typed: plain text, escaped, line breaks kept. */
export const plainToHtml = (text: string): string => `<p>${md.utils.escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;
