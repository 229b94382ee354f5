import { createElement, lazy, useState, type ComponentType } from 'react';
import { laterMessagesIn, loadLaterMessages } from '../providers/i18nProvider';

export { rememberedLoad, type ChunkLoader } from './rememberedLoad';

/**
 * A screen in its own chunk, loaded the first time it is opened (react-admin's layout shows its loading
 * screen meanwhile), so signing in loads the shell and one section, not every screen of the panel. Its
 * messages come with it: the screens' sections of the messages (i18n/panelParts.ts) load alongside its code,
 * unless `coreOnly` says it shows the core part's only (tests/unit/panel-messages.test.ts checks its files).
 *
 * A screen whose chunk (and messages) are already in when it mounts (preloaded through a `rememberedLoad` loader:
 * main.tsx and firstScreen.ts start the cold page's screen with the shell) is rendered as is, not through
 * React.lazy: a lazy component suspends on its first render even when its chunk is loaded, and React then holds
 * the screen back until 300 ms after the loading fallback was shown (its throttle of Suspense reveals), which was a
 * third of a cold page's time.
 */
export function lazyScreen<K extends string, P extends object>(
  load: (() => Promise<Record<K, ComponentType<P>>>) & { loaded?: () => Record<K, ComponentType<P>> | undefined },
  name: K,
  { coreOnly = false }: { coreOnly?: boolean } = {},
): ComponentType<P> {
  const Lazy = lazy(async (): Promise<{ default: ComponentType<P> }> => {
    const [screen] = await Promise.all([load(), coreOnly ? undefined : loadLaterMessages()]);
    return { default: screen[name] };
  });
  // The choice is made once per mount: a component that changed type between renders would be mounted again.
  const Screen = (props: P) => {
    const [Component] = useState<ComponentType<P>>(
      () => ((coreOnly || laterMessagesIn()) && load.loaded?.()?.[name]) || Lazy,
    );
    return createElement(Component, props);
  };
  Screen.displayName = `Screen(${name})`;
  return Screen;
}
