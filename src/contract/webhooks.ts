import { z } from 'zod';

/** Webhook messages (i18n keys under kadr.webhooks). */
export const WM = {
  urlInvalid: 'kadr.webhooks.errors.url_invalid',
  urlRefused: 'kadr.webhooks.errors.url_refused',
  minOneEvent: 'kadr.webhooks.errors.min_one_event',
} as const;

/**
 * The events a webhook may hear, in the product's words, each the domain event of the same name
 * (server/events/events.ts): a render finished or failed, a post published or failed, a platform grant about to
 * expire (the keep-alive renews grants before they run out; one it could not renew, its proxy down say, warns once
 * a day) or lost (refused). `webhook.test` is what "send test" sends.
 */
export const WEBHOOK_EVENTS = [
  'render.finished',
  'render.failed',
  'post.published',
  'post.failed',
  'grant.expiring',
  'grant.lost',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_URL_MAX = 2000;

/**
 * How long the secret a rotation replaced keeps signing deliveries (after the new one), so a receiver can move to
 * the new secret without refusing a message: a day, as is usual.
 */
export const WEBHOOK_SECRET_GRACE_MS = 24 * 3600_000;

const urlField = z
  .string({ error: WM.urlInvalid })
  .trim()
  .max(WEBHOOK_URL_MAX, WM.urlInvalid)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
      } catch {
        return false;
      }
    },
    { message: WM.urlInvalid },
  );
const eventsField = z
  .array(z.enum(WEBHOOK_EVENTS, { error: 'kadr.validation.invalid_value' }), { error: WM.minOneEvent })
  .min(1, WM.minOneEvent)
  .transform((a) => [...new Set(a)]);

/** POST /api/webhooks: the URL (http or https, no credentials in it) and the events it hears. */
export const WebhookCreateSchema = z
  .object({ url: urlField, events: eventsField, enabled: z.boolean().optional() })
  .meta({ example: { url: 'https://hooks.example.com/kadr', events: ['post.failed', 'grant.lost'] } });
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

export const WebhookPatchSchema = z.object({
  url: urlField.optional(),
  events: eventsField.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookPatch = z.infer<typeof WebhookPatchSchema>;

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    user: z.object({ id: z.number().int(), login: z.string() }),
    /** After a rotation, until when the replaced secret still signs deliveries (next to the new one); else null. */
    previousSecretValidUntil: z.string().nullable().meta({
      description: 'After a secret rotation: until when the old secret still signs deliveries (ISO 8601), else null',
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof WebhookSchema>;
export const WebhookListSchema = z.array(WebhookSchema);

/** The answer to a create: the webhook and its signing secret (`whsec_…`), shown this once. */
export const WebhookCreatedSchema = z
  .object({ webhook: WebhookSchema, secret: z.string() })
  .meta({ id: 'WebhookCreated' });
export type WebhookCreated = z.infer<typeof WebhookCreatedSchema>;

/**
 * The answer to "rotate secret": the webhook and its new signing secret, shown this once; the old secret still
 * signs every delivery (after the new one) until `previousSecretValidUntil`.
 */
export const WebhookSecretRotatedSchema = z
  .object({ webhook: WebhookSchema, secret: z.string(), previousSecretValidUntil: z.string() })
  .meta({ id: 'WebhookSecretRotated' });
export type WebhookSecretRotated = z.infer<typeof WebhookSecretRotatedSchema>;

/** One attempt to deliver a message: the answer's status and body (its start), or the network error. */
export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    messageId: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    ok: z.boolean(),
    willRetry: z.boolean(),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = z.array(WebhookDeliverySchema);
