/**
 * The YouTube Data API v3 part of the Google simulator: channels.list and channels.update on one simulated
 * channel, with the daily quota in units (1 per list, 50 per update) and Google's error bodies.
 *   GET  /youtube/v3/channels         part=id,snippet,brandingSettings,statistics & mine=true
 *   PUT  /youtube/v3/channels         part=brandingSettings (overwrites the whole part; invalidPart when mixed)
 */
import { jsonBody, randomToken, type SimReply, type SimRequest, type SimRoute } from './common';

const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';
export const READ_SCOPES = ['youtube', 'youtube.force-ssl', 'youtube.readonly', 'youtubepartner'].map(
  (s) => SCOPE_PREFIX + s,
);
export const WRITE_SCOPES = ['youtube', 'youtube.force-ssl', 'youtubepartner'].map((s) => SCOPE_PREFIX + s);

export interface SimChannel {
  id: string;
  title: string;
  description: string;
  customUrl: string;
  country?: string;
  keywords?: string;
  defaultLanguage?: string;
  unsubscribedTrailer?: string;
  viewCount: number;
  subscriberCount: number;
  videoCount: number;
}

/** The channel and the quota spent so far (live: tests may read and change them). */
export interface YouTubeApiState {
  channel: SimChannel;
  /** False simulates a Google account without a YouTube channel. */
  hasChannel: boolean;
  quotaUsed: number;
}

export const googleApiError = (
  code: number,
  reason: string,
  message: string,
  domain = 'global',
  status?: string,
): SimReply => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain, reason }], ...(status ? { status } : {}) } },
});

const QUOTA_MESSAGE =
  'The request cannot be completed because you have exceeded your ' +
  '<a href="/youtube/v3/getting-started#quota">quota</a>.';
export const quotaExceeded = (): SimReply => googleApiError(403, 'quotaExceeded', QUOTA_MESSAGE, 'youtube.quota');

/** Charges `units` to the shared daily pool, or answers 403 quotaExceeded when they are not left. */
export function quotaSpender(sim: { quotaUsed: number }, dailyQuota: number): (units: number) => SimReply | null {
  return (units) => {
    if (sim.quotaUsed + units > dailyQuota) return quotaExceeded();
    sim.quotaUsed += units;
    return null;
  };
}

/** The channel's uploads playlist (relatedPlaylists.uploads): `UU` and the rest of the channel id. */
export const uploadsPlaylistId = (channelId: string) => 'UU' + channelId.slice(2);

/** `authed` answers the refusal (401, or 403 without one of `scopes`) or null when the bearer token may go on. */
export function youtubeChannelRoutes(
  sim: YouTubeApiState,
  authed: (r: SimRequest, scopes: string[]) => SimReply | null,
  dailyQuota: number,
): SimRoute[] {
  const spend = quotaSpender(sim, dailyQuota);

  const channelResource = (parts: string[]) => {
    const c = sim.channel;
    const out: Record<string, unknown> = { kind: 'youtube#channel', etag: randomToken('', 8), id: c.id };
    if (parts.includes('snippet')) {
      out.snippet = {
        title: c.title,
        description: c.description,
        customUrl: c.customUrl,
        publishedAt: '2024-01-01T00:00:00Z',
        thumbnails: { default: { url: `https://yt3.ggpht.example/${c.id}=s88`, width: 88, height: 88 } },
        country: c.country,
        localized: { title: c.title, description: c.description },
      };
    }
    if (parts.includes('contentDetails')) {
      out.contentDetails = { relatedPlaylists: { likes: '', uploads: uploadsPlaylistId(c.id) } };
    }
    if (parts.includes('statistics')) {
      out.statistics = {
        viewCount: String(c.viewCount),
        subscriberCount: String(c.subscriberCount),
        hiddenSubscriberCount: false,
        videoCount: String(c.videoCount),
      };
    }
    if (parts.includes('brandingSettings')) {
      const channel: Record<string, string> = { title: c.title, description: c.description };
      for (const k of ['keywords', 'country', 'defaultLanguage', 'unsubscribedTrailer'] as const)
        if (c[k]) channel[k] = c[k]!;
      out.brandingSettings = { channel, image: { bannerExternalUrl: `https://yt3.ggpht.example/banner-${c.id}` } };
    }
    return out;
  };

  const KNOWN_PARTS = [
    'id',
    'snippet',
    'statistics',
    'brandingSettings',
    'contentDetails',
    'status',
    'topicDetails',
    'localizations',
  ];

  const listChannels = (r: SimRequest): SimReply => {
    const denied = authed(r, READ_SCOPES);
    if (denied) return denied;
    const parts = (r.query.get('part') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!parts.length) return googleApiError(400, 'required', 'Required parameter: part', 'global');
    const unknown = parts.find((p) => !KNOWN_PARTS.includes(p));
    if (unknown) return googleApiError(400, 'unknownPart', `'${unknown}'`, 'youtube.part');
    const q = spend(1);
    if (q) return q;
    if (r.query.get('mine') !== 'true' && !r.query.get('id'))
      return googleApiError(
        400,
        'missingRequiredParameter',
        'No filter selected. Expected one of: mine, id, forHandle, forUsername, managedByMe',
        'youtube.parameter',
      );
    const match =
      sim.hasChannel &&
      (r.query.get('mine') === 'true' || (r.query.get('id') ?? '').split(',').includes(sim.channel.id));
    const items = match ? [channelResource(parts)] : [];
    return {
      status: 200,
      body: {
        kind: 'youtube#channelListResponse',
        etag: randomToken('', 8),
        pageInfo: { totalResults: items.length, resultsPerPage: 5 },
        items,
      },
    };
  };

  const updateChannel = (r: SimRequest): SimReply => {
    const denied = authed(r, WRITE_SCOPES);
    if (denied) return denied;
    const parts = (r.query.get('part') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!parts.length) return googleApiError(400, 'required', 'Required parameter: part');
    if (parts.includes('brandingSettings') && parts.length > 1) {
      return googleApiError(400, 'invalidPart', "'branding_settings cannot be used with other parts'", 'youtube.part');
    }
    if (parts.some((p) => !['brandingSettings', 'invideoPromotion', 'localizations'].includes(p))) {
      return googleApiError(400, 'invalidPart', `'${parts.join(',')}'`, 'youtube.part');
    }
    const q = spend(50);
    if (q) return q;
    if (!r.json || typeof r.json !== 'object') return googleApiError(400, 'parseError', 'Parse Error');
    const body = jsonBody<{ id: unknown; brandingSettings: { channel?: Record<string, unknown> } }>(r);
    if (!sim.hasChannel || body.id !== sim.channel.id)
      return googleApiError(
        404,
        'channelNotFound',
        "The channel identified with the request's <code>id</code> parameter cannot be found.",
        'youtube.channel',
      );
    const ch = body.brandingSettings?.channel;
    if (!ch || typeof ch !== 'object')
      return googleApiError(
        400,
        'brandingSettingsRequired',
        'The request must include brandingSettings.channel.',
        'youtube.channel',
      );
    if (typeof ch.description === 'string' && ch.description.length > 1000) {
      return googleApiError(400, 'invalidDescription', 'The channel description is too long.', 'youtube.channel');
    }
    // The update overwrites every mutable property of the part: what is missing is cleared.
    const c = sim.channel;
    c.description = typeof ch.description === 'string' ? ch.description : '';
    c.keywords = typeof ch.keywords === 'string' ? ch.keywords : undefined;
    c.country = typeof ch.country === 'string' ? ch.country : undefined;
    c.defaultLanguage = typeof ch.defaultLanguage === 'string' ? ch.defaultLanguage : undefined;
    c.unsubscribedTrailer = typeof ch.unsubscribedTrailer === 'string' ? ch.unsubscribedTrailer : undefined;
    return { status: 200, body: channelResource(['brandingSettings']) };
  };

  return [
    { method: 'GET', path: '/youtube/v3/channels', handler: listChannels },
    { method: 'PUT', path: '/youtube/v3/channels', handler: updateChannel },
  ];
}
