/** Jobs one completing statement marks done at most. */
const BATCH = 500;

type Waiting = { id: number; resolve: (done: boolean) => void; reject: (err: unknown) => void };

/**
 * A runner's finished jobs completed in batches: each handler that returns asks for its job to be marked done, and
 * the asks made in the same turn of the event loop, or while the previous statement was on its way, go into one
 * statement (`complete`: the ids it marked, those this runner still owned). Each ask answers whether its job was
 * marked; a failed statement fails every ask in it.
 */
export class Completions {
  private waiting: Waiting[] = [];
  private flushing = false;

  constructor(private readonly complete: (ids: number[]) => Promise<Set<number>>) {}

  /** Marks job `id` done with the others asked for meanwhile; answers whether it was still this runner's. */
  ask(id: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, BATCH);
      try {
        const done = await this.complete(batch.map((w) => w.id));
        for (const w of batch) w.resolve(done.has(w.id));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.flushing = false;
  }
}
