import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadLaterMessages } from '../providers/i18nProvider';

/**
 * A screen in its own chunk, loaded the first time it is opened (react-admin's layout shows its loading
 * screen meanwhile), so signing in loads the shell and one section, not every screen of the panel. Its
 * messages come with it: the screens' sections of the messages (i18n/panelParts.ts) load alongside its code,
 * unless `coreOnly` says it shows the core part's only (tests/unit/panel-messages.test.ts checks its files).
 */
export function lazyScreen<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
  { coreOnly = false }: { coreOnly?: boolean } = {},
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async (): Promise<{ default: ComponentType<P> }> => {
    const [screen] = await Promise.all([load(), coreOnly ? undefined : loadLaterMessages()]);
    return { default: screen[name] };
  });
}
