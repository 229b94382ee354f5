import { AI_PROVIDERS, type AiMessage, type AiProvider } from '../contract/ai';

/** The ?chat= tab of a session page: gpt or deepseek, gpt when missing or unknown (SPEC §9 default chat type). */
export const chatOf = (param: string | null | undefined): AiProvider =>
  (AI_PROVIDERS as readonly string[]).includes(param ?? '') ? (param as AiProvider) : 'gpt';

/** The send action of a tab (SPEC §7): /type for GPT, /type-deepseek for DeepSeek. */
export const typeAction = (chat: AiProvider) => (chat === 'deepseek' ? 'type-deepseek' : 'type');

/** The turns rendered at first, and how many more each "earlier" step adds. */
export const FIRST_CHUNK = 60;
export const NEXT_CHUNK = 100;

/**
 * A long history is mounted from the newest end (the newest turn is at the bottom): `hidden` is how many of the
 * oldest turns are not in the page yet. At first only the newest FIRST_CHUNK are; scrolling up (or the button)
 * mounts NEXT_CHUNK more, so 1,000 turns never mount at once. New turns of a send do not change `hidden`.
 */
export const initialHidden = (total: number) => Math.max(0, total - FIRST_CHUNK);
export const revealEarlier = (hidden: number) => Math.max(0, hidden - NEXT_CHUNK);

/**
 * The history after a send: the turns the reply carries (the new turn, or the whole history) merged into the
 * ones held, by id, oldest first; a turn already held is replaced by the newer copy.
 */
export function mergeMessages(held: AiMessage[], incoming: AiMessage[]): AiMessage[] {
  const byId = new Map<number, AiMessage>();
  for (const m of held) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
