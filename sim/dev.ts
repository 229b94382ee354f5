import { startSimulators, startLocalProxy } from './platforms/index';
import { startAiSimulator, AI_SIM_KEY } from './ai/ai-sim';
import { startChatSim } from './ai/chat-sim';

/** Offsets from the simulator host's first port: what `SIMULATOR_URL` (server/config.ts) points at. */
export const SIM_PORTS = { google: 0, tiktok: 1, instagram: 2, ai: 3, chat: 4 } as const;

export type DevSimulators = {
  /** The server's environment pointing every platform and AI provider at the simulators. */
  env: Record<string, string>;
  /** What to print: each simulator and the local proxy to put in a profile. */
  lines: string[];
  close(): Promise<void>;
};

/**
 * Local stand-ins of YouTube, TikTok and Instagram, a local proxy for the profile form, an OpenAI-compatible
 * server for the AI service (chat and videos) and a chat web app for the browser driver. On consecutive ports
 * from `portBase` (see SIM_PORTS), or on free ports when none is given.
 */
export async function startDevSimulators(
  opts: { portBase?: number; ffmpegPath?: string } = {},
): Promise<DevSimulators> {
  const port = (k: keyof typeof SIM_PORTS) => (opts.portBase === undefined ? 0 : opts.portBase + SIM_PORTS[k]);
  const platforms = await startSimulators({ portBase: opts.portBase });
  const proxy = await startLocalProxy();
  const ai = await startAiSimulator({ ffmpegPath: opts.ffmpegPath, port: port('ai') });
  const chat = await startChatSim({ port: port('chat'), openAccounts: true });
  const env: Record<string, string> = {
    ...platforms.env,
    AI_GPT_BASE_URL: `${ai.url}/v1`,
    AI_DEEPSEEK_BASE_URL: `${ai.url}/v1`,
    AI_GPT_SITE_URL: chat.url,
    AI_DEEPSEEK_SITE_URL: chat.url,
    AI_VIDEO_BASE_URL: `${ai.url}/api/v1`,
    AI_VIDEO_API_KEY: AI_SIM_KEY,
    AI_VIDEO_DIALECT: 'openrouter',
    AI_VIDEO_POLL_MS: '500',
    ALLOW_PRIVATE_PROXIES: 'true',
  };
  return {
    env,
    lines: [
      `Platform simulators: Google ${platforms.google.url}, TikTok ${platforms.tiktok.url}, Instagram ${platforms.instagram.url}`,
      `Local proxy for profiles: ${proxy.url}`,
      `AI simulator: ${ai.url} (API key for the GPT password: ${AI_SIM_KEY})`,
      `Chat web simulator (browser driver): ${chat.url} (any password but "wrong"; an email with "+code" asks for a code)`,
    ],
    close: async () => {
      await Promise.all([platforms.close(), proxy.close(), ai.close(), chat.close()]);
    },
  };
}
