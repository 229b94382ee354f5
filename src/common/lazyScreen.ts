import { lazy, type ComponentType } from 'react';

/**
 * A screen in its own chunk, loaded the first time it is opened (react-admin's layout shows its loading
 * screen meanwhile), so signing in loads the shell and one section, not every screen of the panel.
 */
export function lazyScreen<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
): ComponentType<any> {
  return lazy(async () => ({ default: (await load())[name] }));
}
