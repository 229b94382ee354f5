/**
 * The Instagram simulator's reading of published media: the user's media list (newest first, cursor paging), a
 * media node's fields (permalink, shortcode, timestamp, like_count, comments_count, …) and its insights (views),
 * with the "no data yet" (`data: []`) and "(#10) Not enough viewers" answers on demand.
 */
import type { SimReply, SimRequest } from './common';

export interface SimInstagramMedia {
  id: string;
  containerId: string;
  caption: string;
  /** share_to_feed and thumb_offset of its container (what the post was made with). */
  shareToFeed?: boolean;
  thumbOffset?: number | null;
  publishedAt: number;
  shortcode: string;
  permalink: string;
  like_count: number;
  comments_count: number;
  views: number;
  /** 'ok' answers views; 'empty' answers `data: []`; 'not-enough-viewers' answers the (#10) error. */
  insights: 'ok' | 'empty' | 'not-enough-viewers';
}

export const param = (r: SimRequest, name: string): string | undefined =>
  r.query.get(name) ?? r.form.get(name) ?? jsonField(r.json, name);

/** A field of a JSON body, as text. */
const jsonField = (json: unknown, name: string): string | undefined => {
  const v = json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined;
  return v === undefined ? undefined : String(v);
};
export const fieldsOf = (r: SimRequest, dflt: string) =>
  (param(r, 'fields') ?? dflt)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

export interface MediaReaderContext {
  username: () => string;
  authorize: (r: SimRequest, scope: string) => SimReply | null;
  graphError: (status: number, code: number, message: string, subcode?: number) => SimReply;
  notFound: (id: string) => SimReply;
  ownUser: (igId: string) => SimReply | null;
}

export function instagramMediaReaders(
  ctx: MediaReaderContext,
  posts: SimInstagramMedia[],
  media: Map<string, SimInstagramMedia>,
) {
  const listMedia = (r: SimRequest, igId: string): SimReply => {
    const denied = ctx.authorize(r, 'instagram_business_basic') ?? ctx.ownUser(igId);
    if (denied) return denied;
    const fields = fieldsOf(r, 'id');
    const pageSize = Math.min(Math.max(Number(param(r, 'limit') ?? 25) || 25, 1), 100);
    const after = Number(Buffer.from(param(r, 'after') ?? '', 'base64url').toString() || 0);
    const newest = [...posts].reverse();
    const page = newest.slice(after, after + pageSize);
    const body: Record<string, unknown> = { data: page.map((m) => mediaFields(m, fields)) };
    if (page.length) {
      const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
      const paging: Record<string, unknown> = {
        cursors: { before: cursor(after), after: cursor(after + page.length) },
      };
      if (after + page.length < newest.length)
        paging.next = `${r.path}?after=${cursor(after + page.length)}&limit=${pageSize}`;
      body.paging = paging;
    }
    return { status: 200, body };
  };

  const mediaFields = (m: SimInstagramMedia, fields: string[]) => {
    const all: Record<string, unknown> = {
      id: m.id,
      caption: m.caption,
      media_type: 'VIDEO',
      media_product_type: 'REELS',
      permalink: m.permalink,
      shortcode: m.shortcode,
      timestamp: graphTime(m.publishedAt),
      like_count: m.like_count,
      comments_count: m.comments_count,
      username: ctx.username(),
    };
    const out: Record<string, unknown> = { id: m.id };
    for (const f of fields) if (f in all) out[f] = all[f];
    return out;
  };

  const mediaNode = (r: SimRequest, id: string): SimReply => {
    const m = media.get(id);
    if (!m) return ctx.authorize(r, 'instagram_business_basic') ?? ctx.notFound(id);
    const denied = ctx.authorize(r, 'instagram_business_basic');
    if (denied) return denied;
    const fields = fieldsOf(r, 'id');
    const known = [
      'id',
      'caption',
      'media_type',
      'media_product_type',
      'permalink',
      'shortcode',
      'timestamp',
      'like_count',
      'comments_count',
      'username',
    ];
    const bad = fields.find((f) => !known.includes(f));
    if (bad) return ctx.graphError(400, 100, `(#100) Tried accessing nonexisting field (${bad}) on node type (Media)`);
    return { status: 200, body: mediaFields(m, fields) };
  };

  const insights = (r: SimRequest, id: string): SimReply => {
    const denied = ctx.authorize(r, 'instagram_business_manage_insights');
    if (denied) return denied;
    const m = media.get(id);
    if (!m) return ctx.notFound(id);
    const metrics = (param(r, 'metric') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const supported = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions'];
    const bad = metrics.find((x) => !supported.includes(x));
    if (!metrics.length || bad) {
      return ctx.graphError(400, 100, `(#100) metric[0] must be one of the following values: ${supported.join(', ')}`);
    }
    if (m.insights === 'not-enough-viewers')
      return ctx.graphError(400, 10, '(#10) Not enough viewers for the media to show insights', 2108006);
    if (m.insights === 'empty') return { status: 200, body: { data: [] } };
    const value = (x: string) =>
      x === 'views' ? m.views : x === 'likes' ? m.like_count : x === 'comments' ? m.comments_count : 0;
    const data = metrics.map((x) => ({
      name: x,
      period: 'lifetime',
      values: [{ value: value(x) }],
      title: x,
      description: '',
      id: `${m.id}/insights/${x}/lifetime`,
    }));
    return { status: 200, body: { data } };
  };

  return { listMedia, mediaNode, insights };
}
