import { useState } from 'react';

/** Where a video element is with its file: still loading, loaded (its first frame can show), or failed. */
export type VideoLoad = 'loading' | 'loaded' | 'failed';

/**
 * A video element's loading, from its own events: `loaded` once its metadata is in, `failed` on an error (a file
 * the browser cannot play, a link that answers an error), `loading` before either and again when `url` changes.
 * Spread `events` on the element.
 */
export function useVideoLoad(url: string | null | undefined) {
  const [seen, setSeen] = useState<{ url: string | null | undefined; state: VideoLoad }>({ url, state: 'loading' });
  const state: VideoLoad = seen.url === url ? seen.state : 'loading';
  const to = (next: VideoLoad) => () => setSeen({ url, state: next });
  return { state, events: { onLoadedMetadata: to('loaded'), onLoadedData: to('loaded'), onError: to('failed') } };
}
