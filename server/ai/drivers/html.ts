import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Chat text → the HTML the panel shows. The model's markdown is rendered with raw HTML off (a `<script>` in
 * an answer becomes text), then sanitised with an allow-list anyway (the browser driver reads a page's HTML).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'b',
    'i',
    'u',
    's',
    'del',
    'code',
    'pre',
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
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'hr',
    'span',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'], code: ['class'], span: ['class'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
};

/** Sanitises HTML from anywhere (a page read by the browser driver) to the chat allow-list. */
export const sanitizeChatHtml = (html: string): string => sanitizeHtml(html, ALLOWED);

/** The model's answer (markdown) as sanitised HTML. */
export const markdownToHtml = (text: string): string => sanitizeChatHtml(md.render(text));

/** What the operator typed: plain text, escaped, line breaks kept. */
export const plainToHtml = (text: string): string => `<p>${md.utils.escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;
