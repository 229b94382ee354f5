import type { Plugin } from 'vite';
import { uk } from '../../i18n/uk';
import { en } from '../../i18n/en';
import { signInMessages as pick } from '../../i18n/signIn';

const PREFIX = 'virtual:sign-in-messages/';

/**
 * `virtual:sign-in-messages/uk` and `/en`: the sign-in page's few messages (i18n/signIn.ts), picked from the
 * language files at build time, so the signed-out page does not load the whole file.
 */
export const signInMessages = (): Plugin => ({
  name: 'kadr-sign-in-messages',
  resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
  load(id) {
    if (!id.startsWith(`\0${PREFIX}`)) return;
    const locale = id.slice(PREFIX.length + 1);
    const messages = { uk, en }[locale];
    if (!messages) throw new Error(`no language ${locale}`);
    return `export default ${JSON.stringify(pick(messages))};`;
  },
});
