// No React here: firstScreen.ts, a small chunk of its own, loads through it.

/** A chunk's loader that keeps its module once loaded: a screen preloaded through it renders without suspending. */
export type ChunkLoader<M> = (() => Promise<M>) & { loaded?: () => M | undefined };

/**
 * `load` loaded once (later calls share the first's promise; a failed load is tried again), with `loaded()` telling
 * its module synchronously once it is in.
 */
export function rememberedLoad<M>(load: () => Promise<M>): ChunkLoader<M> {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  const loader = () =>
    (pending ??= load().then(
      (m) => (module = m),
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  return Object.assign(loader, { loaded: () => module });
}
