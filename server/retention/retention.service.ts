import type { FastifyBaseLogger } from 'fastify';
import type { Storage } from '../media/storage/index';
import type { RetentionSettings } from '../config';
import { cutoffsOf } from './retention-rules';
import type { RetentionRepository, StoredObject } from './retention.repository';

/** Batches of each kind one pass works through at most; the next pass goes on. */
export const BATCHES_PER_PASS = 20;

/** What one pass did. */
export type RetentionReport = {
  measured: number;
  clipsRemoved: number;
  videosRemoved: number;
  /** Objects whose delete failed after their claim: the orphan sweep removes them (their rows no longer name them). */
  deleteFailed: number;
};

/**
 * One retention pass (the hourly 'media.retention' job): dates what ended or was published before retention
 * knew, measures objects stored before sizes were recorded (both always, so the usage figures fill in), then,
 * for each rule that is configured, claims expired objects in batches (RetentionRepository: a claim that finds the
 * object in use leaves it) and deletes each claimed object through the Storage interface.
 */
export class RetentionService {
  constructor(
    private repo: RetentionRepository,
    private storage: Storage,
    private settings: RetentionSettings,
    private log?: FastifyBaseLogger,
  ) {}

  async run(nowMs = Date.now()): Promise<RetentionReport> {
    const report: RetentionReport = { measured: 0, clipsRemoved: 0, videosRemoved: 0, deleteFailed: 0 };
    const { batch } = this.settings;
    await this.batches(() => this.repo.dateEndedRequests(nowMs, batch));
    await this.batches(() => this.repo.datePublished(nowMs, batch));
    report.measured += await this.measure(
      () => this.repo.unmeasuredClips(batch),
      (id, size) => this.repo.setClipSize(id, size),
    );
    report.measured += await this.measure(
      () => this.repo.unmeasuredOutputs(batch),
      (id, size) => this.repo.setOutputSize(id, size),
    );
    const c = cutoffsOf(this.settings, nowMs);
    if (c.clip !== null) {
      const cutoff = c.clip;
      report.clipsRemoved = await this.remove(
        (after) => this.repo.expiredClips(cutoff, after, batch),
        (id) => this.repo.claimClip(id, cutoff, nowMs),
        report,
      );
    }
    if (c.unpublished !== null || c.published !== null)
      report.videosRemoved = await this.remove(
        (after) => this.repo.expiredOutputs(c, after, batch),
        (id) => this.repo.claimOutput(id, c, nowMs),
        report,
      );
    return report;
  }

  /** Repeats `step` (which handles up to one batch and says how many) until a batch is short or the pass's cap. */
  private async batches(step: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < BATCHES_PER_PASS; i++) {
      const n = await step();
      total += n;
      if (n < this.settings.batch) break;
    }
    return total;
  }

  /** Stats each object and records its size (0 for one that is missing: it takes no space). */
  private measure(next: () => Promise<StoredObject[]>, save: (id: number, size: number) => Promise<void>) {
    return this.batches(async () => {
      const objects = await next();
      for (const o of objects) await save(o.id, (await this.storage.stat(o.key))?.size ?? 0);
      return objects.length;
    });
  }

  /**
   * Claims and deletes expired objects batch by batch, in id order; an object whose claim finds it in use is left
   * (it comes back in a later pass).
   */
  private async remove(
    next: (after: number) => Promise<StoredObject[]>,
    claim: (id: number) => Promise<boolean>,
    report: RetentionReport,
  ): Promise<number> {
    let removed = 0;
    let after = 0;
    await this.batches(async () => {
      const objects = await next(after);
      for (const o of objects) {
        after = o.id;
        if (!(await claim(o.id))) continue;
        removed++;
        try {
          await this.storage.delete(o.key);
        } catch (err) {
          report.deleteFailed++;
          this.log?.warn({ err, key: o.key }, 'retention: media file could not be removed (the orphan sweep will)');
        }
      }
      return objects.length;
    });
    return removed;
  }
}
