import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const REAL = 'virtual:mui-tooltip';
const WRAPPER = fileURLToPath(new URL('../../src/common/LazyTooltip.tsx', import.meta.url));
const TOOLTIP_INDEX = /[\\/]@mui[\\/]material[\\/]esm[\\/]Tooltip[\\/]index\.js$/;

/**
 * MUI's Tooltip, everywhere in the panel (react-admin's buttons and menu items, MUI's own components), becomes
 * src/common/LazyTooltip.tsx: the child renders at once with the name the tooltip gives it, and the real Tooltip
 * (with Popper and @popperjs/core, about 12 KB gzip) loads on the first hover, focus or touch. `virtual:mui-tooltip`
 * is the real one, for the wrapper.
 */
export const lazyTooltip = (): Plugin => ({
  name: 'kadr-lazy-tooltip',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (source === REAL) {
      const index = await this.resolve('@mui/material/Tooltip', WRAPPER, { skipSelf: true });
      return index && index.id.replace(/index\.js$/, 'Tooltip.js');
    }
    if (source === './Tooltip.js' && importer && TOOLTIP_INDEX.test(importer)) return WRAPPER;
    return undefined;
  },
});
