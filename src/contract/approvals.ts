import * as z from 'zod/mini';
import { PLATFORMS } from './platforms';
import { PUBLISH_STATES } from './publications';

/**
 * Approval before posting (issue 23 item 3). A user whose publications need approval (users.needs_approval, set by
 * an admin on the user form) has every post stop in 'awaiting_approval' where it becomes due (the publish worker's
 * gate: every way in ends there). An admin sees them (GET /api/approvals, and a bell notification), approves one
 * (it goes out at its date, or at once when the date has passed) or rejects it with a reason (it ends failed with
 * the reason shown). An edit of an approved post (text, tags, date, profile) asks again.
 */

/** Refusals and the stored reason of a rejection (i18n keys). */
export const APPROVAL_MESSAGES = {
  rejected: 'kadr.approvals.rejected_reason',
  notAwaiting: 'kadr.approvals.errors.not_awaiting',
  reasonRequired: 'kadr.approvals.errors.reason_required',
  reasonTooLong: 'kadr.approvals.errors.reason_too_long',
} as const;

export const REJECT_REASON_MAX = 500;

/** POST /api/approvals/{id}/reject: why the post may not go out (shown to its owner). */
export const ApprovalRejectSchema = z
  .object({
    reason: z
      .string({ error: APPROVAL_MESSAGES.reasonRequired })
      .check(
        z.trim(),
        z.minLength(1, APPROVAL_MESSAGES.reasonRequired),
        z.maxLength(REJECT_REASON_MAX, APPROVAL_MESSAGES.reasonTooLong),
      ),
  })
  .register(z.globalRegistry, { example: { reason: 'The title names a competitor' } });
export type ApprovalReject = z.infer<typeof ApprovalRejectSchema>;

/** One post awaiting approval, as the admins' list shows it. */
export const ApprovalItemSchema = z
  .object({
    id: z.int().register(z.globalRegistry, { description: 'The post (video_publishes row)' }),
    videoId: z.int(),
    publicationId: z.nullable(z.int()),
    idUpload: z.nullable(z.string()),
    platform: z.enum(PLATFORMS),
    owner: z.object({ id: z.int(), login: z.string() }),
    account: z.nullable(z.object({ id: z.int(), name: z.string() })),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    dueAt: z.string(),
    /** The video's version the admin sees (an edit bumps it: approving approves this version's content). */
    version: z.int(),
    since: z.string().register(z.globalRegistry, { description: 'When it started waiting' }),
  })
  .register(z.globalRegistry, { id: 'ApprovalItem' });
export type ApprovalItem = z.infer<typeof ApprovalItemSchema>;

/** The answer of an approval or a rejection: the post and the state it moved to. */
export const ApprovalDecisionSchema = z.object({ id: z.int(), state: z.enum(PUBLISH_STATES) });
