/**
 * The panel's messages in two parts, cut from uk.ts and en.ts at build time (scripts/vite/panelMessages.ts,
 * `virtual:panel-messages/uk/core` and so on); the language files stay the one place each text is written. A
 * cold page whose screen shows the core part only (the users list, src/providers/firstData.ts `coreOnlyPage`)
 * loads that part, and the later one with the first screen that needs it (src/common/lazyScreen.ts); every other
 * page loads the language file whole, as before.
 *
 * - `core`: react-admin's own texts, the resources' names and every section of `kadr` not named below: what the
 *   shell (menu, app bar, errors, validation) and the users list show.
 * - `later`: the sections named below, which only screens of their own domain show (and the bell's panel: a
 *   notification's stored message may name a platform's error).
 *
 * A new section lands in `core`; list it here once no shell or core-only screen shows it
 * (tests/unit/panel-messages.test.ts checks those files name no `later` section).
 */
export const LATER_SECTIONS = [
  'platform_errors',
  'ai_errors',
  'imports',
  'ai',
  'ai_log',
  'accounts',
  'publishing',
  'platform_posts',
  'posts',
  'publications',
  'jobs',
  'webhooks',
  'api_keys',
  'analytics',
  'videos',
  'slots',
  'calendar',
  'audit',
  'approvals',
  'backgrounds',
  'groups',
  'tags',
  'publish',
] as const;

export type Part = 'core' | 'later';
type Messages = { [key: string]: string | Messages };

/** One part of one language's full `messages` ({ ra…, kadr: {…}, resources }). */
export function panelPart(messages: object, part: Part): Messages {
  const { kadr, ...rest } = messages as Messages & { kadr: Messages };
  const later = (section: string) => (LATER_SECTIONS as readonly string[]).includes(section);
  const sections = Object.fromEntries(Object.entries(kadr).filter(([s]) => later(s) === (part === 'later')));
  return part === 'core' ? { ...rest, kadr: sections } : { kadr: sections };
}

/** Both parts as one `messages` again. */
export const joinParts = <M extends object>(core: M, later: object): M => ({
  ...core,
  kadr: { ...(core as { kadr?: object }).kadr, ...(later as { kadr?: object }).kadr },
});
