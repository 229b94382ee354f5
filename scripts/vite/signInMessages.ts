import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:sign-in-messages/';
const LOCALES = ['uk', 'en'];
const fileOf = (name: string) => fileURLToPath(new URL(`../../i18n/${name}.ts`, import.meta.url));

/**
 * `virtual:sign-in-messages/uk` and `/en`: the sign-in page's few messages (i18n/signIn.ts), picked from the
 * language files at build time, so the signed-out page does not load the whole file. The language files are read
 * when the module is built (and again when they change), not by the config itself.
 */
export const signInMessages = (): Plugin => ({
  name: 'kadr-sign-in-messages',
  resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
  async load(id) {
    if (!id.startsWith(`\0${PREFIX}`)) return;
    const locale = id.slice(PREFIX.length + 1);
    if (!LOCALES.includes(locale)) throw new Error(`no language ${locale}`);
    const [{ signInMessages: pick }, language] = await Promise.all([
      tsImport(fileOf('signIn'), import.meta.url),
      tsImport(fileOf(locale), import.meta.url),
    ]);
    this.addWatchFile(fileOf(locale));
    return `export default ${JSON.stringify(pick(language[locale]))};`;
  },
});
