import { M } from '../src/contract/messages';

/**
 * The keys the signed-out page uses (src/LoginApp.tsx and what it renders: the form, its rules' messages, the
 * language switch, the toasts). The build serves just these to that page (scripts/vite/signInMessages.ts,
 * `virtual:sign-in-messages/uk|en`), so the full message file loads with the panel only.
 */
export const SIGN_IN_KEYS = [
  'kadr.login.title',
  'kadr.login.login',
  'kadr.login.password',
  'kadr.login.submit',
  'kadr.notifications.logged_in',
  'kadr.notifications.error',
  'kadr.settings.language',
  'kadr.two_factor.sign_in_title',
  'kadr.two_factor.sign_in_hint',
  'kadr.two_factor.code',
  'kadr.two_factor.confirm',
  'kadr.two_factor.back',
  M.required,
  M.tooShort,
  M.tooLong,
] as const;

type Messages = { [key: string]: string | Messages };

/** The part of one language's `messages` at SIGN_IN_KEYS, nested as in `messages`. */
export function signInMessages(messages: object): Messages {
  const picked: Messages = {};
  for (const key of SIGN_IN_KEYS) {
    const path = key.split('.');
    const text = path.reduce<unknown>((at, part) => (at as Messages | undefined)?.[part], messages);
    if (typeof text !== 'string') throw new Error(`sign-in message ${key} is missing`);
    let into = picked;
    for (const part of path.slice(0, -1)) into = (into[part] ??= {}) as Messages;
    into[path.at(-1)!] = text;
  }
  return picked;
}
