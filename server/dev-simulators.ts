import type { Config } from './config';

/**
 * SIMULATORS=on (`npm run dev`): local YouTube/TikTok/Instagram stand-ins, a local proxy for the profile form,
 * an OpenAI-compatible server for the AI service (chat and videos) and, for providers set to the browser driver,
 * a chat web app; `config` is pointed at them and their addresses are printed.
 */
export async function startDevSimulators(config: Config): Promise<void> {
  // SIMULATORS=on: local YouTube/TikTok/Instagram stand-ins, so the connect flows can be clicked through offline.
  const { startSimulators, startLocalProxy } = await import('./platforms/simulators/index');
  const sims = await startSimulators();
  config.platforms = sims.config;
  process.stdout.write(
    `Platform simulators: Google ${sims.google.url}, TikTok ${sims.tiktok.url}, Instagram ${sims.instagram.url}\n`,
  );
  // Every profile needs a proxy: a local one to put in the profile form.
  process.stdout.write(`Local proxy for profiles: ${(await startLocalProxy()).url}\n`);
  // The AI service against a local OpenAI-compatible server (chat and videos); its API key for the GPT form.
  const { startAiSimulator, AI_SIM_KEY } = await import('./ai/simulators/ai-sim');
  const ai = await startAiSimulator({ ffmpegPath: config.ffmpegPath });
  for (const p of Object.values(config.ai.providers)) if (p.driver === 'api') p.baseUrl = `${ai.url}/v1`;
  config.ai.video = {
    ...config.ai.video,
    baseUrl: `${ai.url}/api/v1`,
    apiKey: AI_SIM_KEY,
    dialect: 'openrouter',
    pollMs: 500,
  };
  process.stdout.write(`AI simulator: ${ai.url} (API key for the GPT password: ${AI_SIM_KEY})\n`);
  if (Object.values(config.ai.providers).some((p) => p.driver === 'browser')) {
    const { startChatSim } = await import('./ai/simulators/chat-sim');
    const chat = await startChatSim({ openAccounts: true });
    for (const p of Object.values(config.ai.providers)) if (p.driver === 'browser') p.siteUrl = chat.url;
    process.stdout.write(
      `Chat web simulator (browser driver): ${chat.url} (any password but "wrong"; an email with "+code" asks for a code)\n`,
    );
  }
}
