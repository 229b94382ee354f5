import {
  FIRST_CHUNK,
  NEXT_CHUNK,
  chatOf,
  initialHidden,
  mergeMessages,
  revealEarlier,
  typeAction,
} from '../../src/ai/chat';
import { videoActions, videoRefresh, VIDEO_REFRESH_MS } from '../../src/ai/videoRules';
import { safeHtml } from '../../src/ai/sanitize';
import type { AiMessage } from '../../src/contract/ai';

const turn = (id: number, text = `m${id}`): AiMessage => ({
  id,
  provider: 'gpt',
  message_my: text,
  message_ai: `<p>${text}</p>`,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('the ?chat= tab', () => {
  it('is gpt by default and for anything unknown, deepseek when asked', () => {
    expect(chatOf(null)).toBe('gpt');
    expect(chatOf('')).toBe('gpt');
    expect(chatOf('claude')).toBe('gpt');
    expect(chatOf('deepseek')).toBe('deepseek');
    expect(chatOf('gpt')).toBe('gpt');
  });
  it('sends to /type or /type-deepseek', () => {
    expect(typeAction('gpt')).toBe('type');
    expect(typeAction('deepseek')).toBe('type-deepseek');
  });
});

describe('chat history chunks', () => {
  it('mounts only the newest turns of a long history, then earlier ones a chunk at a time', () => {
    expect(initialHidden(10)).toBe(0);
    expect(initialHidden(FIRST_CHUNK)).toBe(0);
    let hidden = initialHidden(1000);
    expect(1000 - hidden).toBe(FIRST_CHUNK);
    const steps: number[] = [];
    while (hidden > 0) {
      hidden = revealEarlier(hidden);
      steps.push(hidden);
    }
    expect(steps[0]).toBe(1000 - FIRST_CHUNK - NEXT_CHUNK);
    expect(steps).toHaveLength(Math.ceil((1000 - FIRST_CHUNK) / NEXT_CHUNK));
    expect(steps.at(-1)).toBe(0);
  });
  it('merges a reply into the history by id, oldest first, the newer copy winning', () => {
    const held = [turn(1), turn(2)];
    expect(mergeMessages(held, [turn(3)]).map((m) => m.id)).toEqual([1, 2, 3]);
    // A reply carrying the whole history (with an edited turn) gives no duplicates.
    const merged = mergeMessages(held, [turn(2, 'edited'), turn(1), turn(3)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(merged[1]!.message_my).toBe('edited');
  });
});

describe('chat HTML', () => {
  it('keeps formatting and drops scripts, handlers and javascript: links', () => {
    const out = safeHtml(
      '<p>Hi <b>there</b></p><script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a><a href="https://e.example">ok</a>',
    );
    expect(out).toContain('<b>there</b>');
    expect(out).not.toMatch(/script|onerror|javascript:/);
    expect(out).toContain('href="https://e.example"');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(safeHtml(null)).toBe('');
  });
});

describe('AI video rules', () => {
  it('offers Publish only for a ready video with a file, Recreate and Reject for ready or failed ones', () => {
    expect(videoActions({ status: 'success', videoUrl: '/m' })).toEqual({
      publish: true,
      recreate: true,
      reject: true,
    });
    expect(videoActions({ status: 'success', videoUrl: null }).publish).toBe(false);
    expect(videoActions({ status: 'error', videoUrl: null })).toEqual({ publish: false, recreate: true, reject: true });
    expect(videoActions({ status: 'loading', videoUrl: null })).toEqual({
      publish: false,
      recreate: false,
      reject: false,
    });
    expect(videoActions({ status: 'publication', videoUrl: '/m' })).toEqual({
      publish: false,
      recreate: false,
      reject: false,
    });
  });
  it('refreshes the list while a video generates or is on its way to a platform', () => {
    expect(videoRefresh(undefined)).toBe(false);
    expect(videoRefresh([{ status: 'success', publication: null }])).toBe(false);
    expect(videoRefresh([{ status: 'loading', publication: null }])).toBe(VIDEO_REFRESH_MS);
    const pub = { id: 1, videoId: 2, error: null, errorDetail: null };
    expect(videoRefresh([{ status: 'publication', publication: { ...pub, status: 'loading' } }])).toBe(
      VIDEO_REFRESH_MS,
    );
    expect(videoRefresh([{ status: 'publication', publication: { ...pub, status: 'success' } }])).toBe(false);
  });
});
