/**
 * The Graph API calls the Instagram publisher builds on: one request through the profile's proxy with the token as
 * `access_token` and Graph errors mapped (./instagram.errors.ts), the user's recent media and a media's views.
 */
import { asNode, joinUrl, readBody, stripUndefined } from '../common';
import type { FormValue, PlatformHttp } from '../http';
import { isPlatformError } from '../types';
import {
  INSTAGRAM_DEFAULT_BASE_URLS,
  INSTAGRAM_DEFAULT_GRAPH_VERSION,
  type InstagramBaseUrls,
} from './instagram.driver';
import { instagramPublishError } from './instagram.errors';
import { toMedia, type GraphNode, type InstagramMedia } from './instagram.publish-types';

export interface InstagramGraphOptions {
  http: PlatformHttp;
  baseUrls?: Partial<InstagramBaseUrls>;
  graphVersion?: string;
  now?: () => Date;
}

/** Pages of the media list read at most when looking for recent posts (50 each). */
const LIST_PAGES_MAX = 4;

export class InstagramGraphClient {
  readonly baseUrls: InstagramBaseUrls;
  readonly graphVersion: string;
  protected readonly http: PlatformHttp;
  protected readonly now: () => Date;

  constructor(opts: InstagramGraphOptions) {
    this.http = opts.http;
    this.baseUrls = { ...INSTAGRAM_DEFAULT_BASE_URLS, ...stripUndefined(opts.baseUrls) };
    this.graphVersion = opts.graphVersion || INSTAGRAM_DEFAULT_GRAPH_VERSION;
    this.now = opts.now ?? (() => new Date());
  }

  /** A media's insights (views, shares, saves) in one call; zeros when it has too few viewers or no data yet. */
  protected async insights(accessToken: string, id: string): Promise<{ views: number; shares: number; saves: number }> {
    try {
      const body = await this.graph(accessToken, `/${id}/insights`, { metric: 'views,shares,saved' });
      const data = Array.isArray(body.data) ? body.data : [];
      const value = (name: string) => {
        const metric = data.find((d) => d?.name === name);
        return Number(metric?.values?.[0]?.value ?? metric?.total_value?.value ?? 0) || 0;
      };
      return { views: value('views'), shares: value('shares'), saves: value('saved') };
    } catch (e) {
      const raw = isPlatformError(e) ? (e.raw as GraphNode | undefined) : undefined;
      if (Number(raw?.code) === 10 && /not enough viewers/i.test(String(raw?.message ?? '')))
        return { views: 0, shares: 0, saves: 0 };
      throw e;
    }
  }

  /** The user's media published at or after `since`, newest first, walking a few pages at most. */
  protected async recentMedia(accessToken: string, igUserId: string, since: Date): Promise<InstagramMedia[]> {
    const out: InstagramMedia[] = [];
    let after: string | undefined;
    for (let page = 0; page < LIST_PAGES_MAX; page++) {
      const query = { fields: 'id,caption,timestamp,permalink,shortcode', limit: 50, after };
      const body = await this.graph(accessToken, `/${igUserId}/media`, query);
      const items = (Array.isArray(body?.data) ? body.data : []).map(toMedia);
      for (const m of items) if (m.timestamp.getTime() >= since.getTime()) out.push(m);
      after = body?.paging?.next ? body?.paging?.cursors?.after : undefined;
      if (!after || items.some((m: InstagramMedia) => m.timestamp.getTime() < since.getTime())) break;
    }
    return out;
  }

  protected url(path: string): string {
    return joinUrl(this.baseUrls.graph, `/${this.graphVersion}${path}`);
  }

  protected async graph(
    accessToken: string,
    path: string,
    query: Record<string, FormValue>,
    method = 'GET',
  ): Promise<GraphNode> {
    const res = await this.http.request(this.url(path), { method, query: { ...query, access_token: accessToken } });
    const body = await readBody(res);
    const node = asNode<GraphNode & { error?: unknown }>(body);
    if (res.status !== 200 || node.error) throw instagramPublishError(res.status, res.headers, body);
    return node;
  }
}
