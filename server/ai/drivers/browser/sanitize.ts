import { sanitizeChatHtml } from '../html';

/** An assistant turn's HTML read off the site's page, cut to the chat allow-list (../html.ts). */
export const sanitizeTurnHtml = sanitizeChatHtml;
