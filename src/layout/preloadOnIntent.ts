import { coreOnlyPage } from '../providers/firstData';
import { loadLaterMessages } from '../providers/i18nProvider';

const started = new Set<string>();

/**
 * A menu item's screen starts loading when the pointer rests on it or it takes the focus (its code, the contracts
 * its first answers need, and the messages it shows), so by the click it is in and renders at once (lazyScreen),
 * instead of after its chunk and React's 300 ms hold on a suspended screen. Once per path.
 */
export function preloadOnIntent(to: string) {
  const start = () => {
    if (started.has(to)) return;
    started.add(to);
    if (!coreOnlyPage(to)) void loadLaterMessages();
    void import('../firstScreen').then((m) => m.preloadScreen(to));
  };
  return { onMouseEnter: start, onFocus: start, onTouchStart: start };
}
