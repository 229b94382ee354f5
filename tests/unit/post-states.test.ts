import { PUBLISH_STATES, type PublishState } from '../../src/contract/publications';
import { IllegalPostMove, POST_MOVES, postMove } from '../../server/publishing/post-states';

/** A post's states and the moves between them (server/publishing/post-states.ts): one table, checked here. */
describe('post states', () => {
  it('lists every state, each reachable from a new post', () => {
    expect(Object.keys(POST_MOVES).sort()).toEqual([...PUBLISH_STATES].sort());
    const seen = new Set<PublishState>(['scheduled']);
    for (let grew = true; grew;) {
      grew = false;
      for (const from of seen)
        for (const to of Object.keys(POST_MOVES[from]) as PublishState[]) if (!seen.has(to)) grew = !!seen.add(to);
    }
    expect([...seen].sort()).toEqual([...PUBLISH_STATES].sort());
  });

  it('gives each move its event: published and failed are news, the rest a change', () => {
    expect(postMove('uploading', 'processing')).toBe('post.changed');
    expect(postMove('processing', 'published')).toBe('post.published');
    expect(postMove('scheduled', 'failed')).toBe('post.failed');
    expect(postMove('failed', 'scheduled')).toBe('post.changed');
    // A cancel that raced the public step does not hide a live post.
    expect(postMove('cancelled', 'published')).toBe('post.published');
  });

  it('refuses a move the table does not list: a programming error', () => {
    expect(() => postMove('published', 'scheduled')).toThrow(IllegalPostMove);
    expect(() => postMove('published', 'failed')).toThrow(IllegalPostMove);
    expect(() => postMove('scheduled', 'publishing')).toThrow(IllegalPostMove);
    expect(() => postMove('publishing', 'cancelled')).toThrow(IllegalPostMove);
    expect(() => postMove('cancelled', 'failed')).toThrow(IllegalPostMove);
    expect(() => postMove('nonsense', 'scheduled')).toThrow(/illegal post move nonsense → scheduled/);
  });

  it('never leaves a published post', () => {
    expect(POST_MOVES.published).toEqual({});
  });
});
