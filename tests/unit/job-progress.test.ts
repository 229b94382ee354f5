import { describe, expect, it } from 'vitest';
import { breakableId, jobProgress } from '../../src/jobs/progress';

describe('a job progress mark on the Jobs screen', () => {
  it("reads the publish chain's mark as the post's state and the bytes sent", () => {
    expect(jobProgress('uploading|1764150000000|12582912')).toEqual({
      kind: 'post',
      state: 'uploading',
      bytesSent: 12582912,
    });
    expect(jobProgress('processing|1764150000000|0')).toEqual({ kind: 'post', state: 'processing', bytesSent: 0 });
    // As the worker writes it: the row's last write as stored, an ISO instant.
    expect(jobProgress('processing|2026-11-27T11:50:17.492Z|89577')).toEqual({
      kind: 'post',
      state: 'processing',
      bytesSent: 89577,
    });
  });

  it('shows any other mark as it is', () => {
    expect(jobProgress('polling:42%')).toEqual({ kind: 'text', text: 'polling:42%' });
    expect(jobProgress('uploading|soon|1')).toEqual({ kind: 'text', text: 'uploading|soon|1' });
  });

  it('lets a worker id wrap after its separators only, and keeps its text', () => {
    const id = breakableId('kadr-worker-1:4242:a1b2c3');
    expect(id.replace(/\u200b/g, '')).toBe('kadr-worker-1:4242:a1b2c3');
    expect(id.split('\u200b')).toEqual(['kadr-', 'worker-', '1:', '4242:', 'a1b2c3']);
  });
});
