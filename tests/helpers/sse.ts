import { request, type ClientRequest } from 'node:http';

/** `at`: when it arrived (performance.now()). */
export type SseMessage = { id?: number; kind: string; payload: any; at: number };

/**
 * A server-sent-events reader for tests: opens `url` (optionally with Last-Event-ID and other headers), parses
 * each message and keeps them in `messages`; `close` ends the request. Poll `messages` with expect.poll.
 */
export function openSse(url: string, lastEventId?: number, headers: Record<string, string> = {}) {
  const messages: SseMessage[] = [];
  const state = { status: 0, contentType: '', ended: false, comments: 0 };
  let req: ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    const resume = lastEventId ? { 'Last-Event-ID': String(lastEventId) } : {};
    req = request(url, { headers: { ...resume, ...headers } }, (res) => {
      state.status = res.statusCode ?? 0;
      state.contentType = String(res.headers['content-type'] ?? '');
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        buf += chunk;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          let id: number | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) state.comments++;
            else if (line.startsWith('id: ')) id = Number(line.slice(4));
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) messages.push({ id, ...JSON.parse(data), at: performance.now() });
        }
      });
      res.on('end', () => (state.ended = true));
      res.on('error', () => (state.ended = true));
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
  return {
    messages,
    state,
    opened,
    close: () => {
      req.destroy();
    },
  };
}
