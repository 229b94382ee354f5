import sanitizeHtml from 'sanitize-html';

/**
 * What an assistant turn's HTML may keep when it leaves the site's page for the panel: the markup of rendered
 * Markdown (paragraphs, lists, emphasis, code, tables, quotes, headings, links) and nothing that runs or loads:
 * no scripts, styles, event handlers, iframes, forms, images or inline SVG. Links keep http(s)/mailto only and
 * open in a new tab without an opener.
 */
const OPTIONS: sanitizeHtml.IOptions = {
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

export function sanitizeTurnHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
