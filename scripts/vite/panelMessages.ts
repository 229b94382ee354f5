import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:panel-messages/';
const LOCALES = ['uk', 'en'];
const PARTS = ['core', 'later'];
const fileOf = (name: string) => fileURLToPath(new URL(`../../i18n/${name}.ts`, import.meta.url));

/**
 * `virtual:panel-messages/<uk|en>/<core|later>`: the panel's messages cut in two at build time (i18n/panelParts.ts),
 * so a page loads the shell's part first and the screens' sections only with a screen that shows them. The
 * language files are read when the module is built (and again when they change), not by the config itself.
 */
export const panelMessages = (): Plugin => ({
  name: 'kadr-panel-messages',
  resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
  async load(id) {
    if (!id.startsWith(`\0${PREFIX}`)) return;
    const [locale, part] = id.slice(PREFIX.length + 1).split('/') as [string, string];
    if (!LOCALES.includes(locale) || !PARTS.includes(part)) throw new Error(`no messages ${locale}/${part}`);
    const [{ panelPart }, language] = await Promise.all([
      tsImport(fileOf('panelParts'), import.meta.url),
      tsImport(fileOf(locale), import.meta.url),
    ]);
    this.addWatchFile(fileOf(locale));
    this.addWatchFile(fileOf('panelParts'));
    return `export default ${JSON.stringify(panelPart(language[locale], part))};`;
  },
});
