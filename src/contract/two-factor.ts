import { z } from 'zod';
import { M } from './messages';

/** Two-factor sign-in (server/two-factor): TOTP codes (RFC 6238, 6 digits, 30 s) and one-time recovery codes. */
export const TM = {
  wrongCode: 'kadr.two_factor.errors.wrong_code',
  notPending: 'kadr.two_factor.errors.not_pending',
  alreadyOn: 'kadr.two_factor.errors.already_on',
  requiredByAdmin: 'kadr.two_factor.errors.required_by_admin',
  challengeExpired: 'kadr.two_factor.errors.challenge_expired',
  enrolRequired: 'kadr.two_factor.errors.enrol_required',
} as const;

export const RECOVERY_CODES = 10;

/** A 6-digit code, or a recovery code (`xxxxx-xxxxx`); spaces and dashes are the user's to type. */
export const codeField = () =>
  z
    .string({ error: M.required })
    .min(1, M.required)
    .max(40, M.tooLong)
    .meta({ description: 'A 6-digit code from the app, or a recovery code', example: '123456' });

/** Second sign-in step: the challenge the password step answered with, and a code. */
export const LoginCodeSchema = z.object({
  challenge: z.string({ error: M.required }).min(1, M.required).max(500, M.tooLong),
  code: codeField(),
});
export type LoginCodeInput = z.infer<typeof LoginCodeSchema>;

export const TwoFactorCodeSchema = z.object({ code: codeField() });

/** Turning 2FA off asks for the password again. */
export const TwoFactorOffSchema = z.object({
  password: z.string({ error: M.required }).min(1, M.required).max(50, M.tooLong),
});

export const TwoFactorStatusSchema = z
  .object({
    enabled: z.boolean(),
    /** An admin requires 2FA of everyone. */
    required: z.boolean(),
    recoveryCodesLeft: z.number().int(),
  })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const TwoFactorSetupSchema = z
  .object({
    secret: z.string().meta({ description: 'Base32 secret, for typing into the app by hand' }),
    uri: z.string().meta({ description: 'otpauth:// URI' }),
    qr: z.string().meta({ description: 'The URI as a QR code, a PNG data URL' }),
  })
  .meta({ id: 'TwoFactorSetup' });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

export const RecoveryCodesSchema = z
  .object({ recoveryCodes: z.array(z.string()).meta({ description: 'Shown once; each works once' }) })
  .meta({ id: 'RecoveryCodes' });

export const TwoFactorPolicySchema = z.object({ required: z.boolean({ error: M.required }) });
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicySchema>;
