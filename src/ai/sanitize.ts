import DOMPurify from 'dompurify';

/**
 * Chat HTML as the page may show it: the server already sanitises the model's answer; the panel does it again
 * (defence in depth) with DOMPurify's HTML profile. Links open in a new tab without the opener.
 */
let hooked = false;
export function safeHtml(html: string | null | undefined): string {
  if (!html) return '';
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input'] });
}
