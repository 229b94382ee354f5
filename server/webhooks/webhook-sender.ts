import { Agent, request, type Dispatcher } from 'undici';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, isRefusedLiteral, PROXY_REFUSED_CODE } from '../platforms/proxy-guard';

/** What one attempt got: a 2xx is `ok`; `status`/`body` (its first characters) when an answer came. */
export type SendResult = {
  ok: boolean;
  status: number | null;
  body: string | null;
  /** Why no answer came (network error, timeout, refused address), else null. */
  error: string | null;
  /** The address is not public (the SSRF guard): retrying cannot help. */
  refused: boolean;
  durationMs: number;
};

/**
 * A message: its id (the same on every retry), the JSON body, and the webhook's `whsec_` secrets: the one in use
 * first, then the one a rotation replaced while its grace period lasts.
 */
export type OutgoingMessage = { url: string; messageId: string; body: string; secrets: string[] };

/** Characters of an answer's body kept in the delivery log. */
export const BODY_SNIPPET = 500;
const TIMEOUT_MS = 10_000;
const READ_LIMIT = 4096;

/**
 * Sends webhook messages as Standard Webhooks prescribes: POST of the JSON body with `webhook-id`,
 * `webhook-timestamp` (Unix seconds, this attempt's) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` under the secret), signed by the `standardwebhooks` library. After a rotation the header holds
 * one signature per secret, space-separated, the new one first (the spec's zero-downtime rotation: a receiver
 * accepts the message when any of them verifies). Redirects are not followed.
 *
 * Unless `allowPrivate` (ALLOW_PRIVATE_WEBHOOKS), the proxy guard keeps it from pointing inward (SSRF): an
 * address literal that is not public is refused before any connection, and a name is resolved by the guarded
 * lookup, which refuses it when any of its addresses is not public and connects to the address it checked.
 */
export class WebhookSender {
  private agent: Agent;

  constructor(
    private allowPrivate: boolean,
    private now: () => number = Date.now,
  ) {
    this.agent = new Agent({
      connect: { timeout: TIMEOUT_MS, ...(allowPrivate ? {} : { lookup: guardedLookup() }) },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  }

  /** Whether this URL's host is an address literal the guard refuses (checked when a webhook is saved too). */
  refusesLiteral(url: string): boolean {
    if (this.allowPrivate) return false;
    try {
      return isRefusedLiteral(new URL(url).hostname);
    } catch {
      return true;
    }
  }

  async send(m: OutgoingMessage): Promise<SendResult> {
    const started = this.now();
    const took = () => Math.max(0, Math.round(this.now() - started));
    if (this.refusesLiteral(m.url))
      return { ok: false, status: null, body: null, error: 'address refused', refused: true, durationMs: 0 };
    const at = new Date(this.now());
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Kadr-Webhooks/1',
      'webhook-id': m.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': m.secrets.map((secret) => new Webhook(secret).sign(m.messageId, at, m.body)).join(' '),
    };
    try {
      const res = await request(m.url, {
        method: 'POST',
        headers,
        body: m.body,
        dispatcher: this.agent as Dispatcher,
        signal: AbortSignal.timeout(TIMEOUT_MS * 2),
      });
      const body = await readSome(res.body);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { ok, status: res.statusCode, body, error: null, refused: false, durationMs: took() };
    } catch (err) {
      const refused = refusedBy(err);
      return { ok: false, status: null, body: null, error: errorText(err, refused), refused, durationMs: took() };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The answer's first characters; the rest is not read. */
async function readSome(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += Buffer.from(chunk as Uint8Array).toString('utf8');
      if (text.length >= READ_LIMIT) break;
    }
  } finally {
    body.destroy();
  }
  return text.slice(0, BODY_SNIPPET);
}

function refusedBy(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, n = 0; e && n < 5; e = e.cause as never, n++)
    if (e.code === PROXY_REFUSED_CODE) return true;
  return false;
}

function errorText(err: unknown, refused: boolean): string {
  if (refused) return 'address refused';
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = e?.cause?.code ?? e?.code;
  const message = e?.cause?.message ?? e?.message ?? String(err);
  return `${code ? `${String(code)}: ` : ''}${String(message)}`.slice(0, 300);
}
