import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A screen in its own chunk, loaded the first time it is opened (react-admin's layout shows its loading
 * screen meanwhile), so signing in loads the shell and one section, not every screen of the panel.
 */
export function lazyScreen<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async (): Promise<{ default: ComponentType<P> }> => ({ default: (await load())[name] }));
}
