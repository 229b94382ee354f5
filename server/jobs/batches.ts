/** Asks one statement answers at most. */
const BATCH = 500;

type Waiting<T, R> = { item: T; resolve: (answer: R) => void; reject: (err: unknown) => void };

/**
 * Asks of one kind answered in batches, one statement each (a runner's completions, its stalled-successor lookups):
 * the asks made in the same turn of the event loop, or while the previous statement was on its way, go into the
 * next one. `run` answers a batch with a function that gives each ask its own answer; a failed statement fails
 * every ask in it.
 */
export class Batches<T, R> {
  private waiting: Waiting<T, R>[] = [];
  private flushing = false;

  constructor(private readonly run: (items: T[]) => Promise<(item: T) => R>) {}

  /** Answers `item` with the others asked meanwhile. */
  ask(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, BATCH);
      try {
        const answer = await this.run(batch.map((w) => w.item));
        for (const w of batch) w.resolve(answer(w.item));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.flushing = false;
  }
}
