import { createElement, lazy, useState, type ComponentType } from 'react';

/** A screen's loader that may say, without waiting, that its module is in already (firstScreen's loaders do). */
type Load<K extends string, P extends object> = (() => Promise<Record<K, ComponentType<P>>>) & {
  loaded?: () => Record<K, ComponentType<P>> | undefined;
};

/**
 * A screen in its own chunk, loaded the first time it is opened (react-admin's layout shows its loading
 * screen meanwhile), so signing in loads the shell and one section, not every screen of the panel. A screen whose
 * chunk is in already (preloaded with the shell: firstScreen.ts) renders at once: suspending on it would show the
 * loading screen for a moment and hold the screen back (React reveals content at the earliest 300 ms after a
 * fallback), and its data would be asked for that much later.
 */
export function lazyScreen<K extends string, P extends object>(load: Load<K, P>, name: K): ComponentType<P> {
  const Lazy = lazy(async (): Promise<{ default: ComponentType<P> }> => ({ default: (await load())[name] }));
  function Screen(props: P) {
    // Decided once per mount: switching components later would remount the screen.
    const [Shown] = useState<ComponentType<P>>(() => load.loaded?.()?.[name] ?? Lazy);
    return createElement(Shown, props);
  }
  Screen.displayName = `Screen(${name})`;
  return Screen;
}
