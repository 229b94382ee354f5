/**
 * The entry of `npm start` and `npm run dev`. With SIMULATORS=on it first starts the local stand-ins of every
 * platform and AI provider (sim/) and hands the server their addresses through its environment, so every flow
 * can be clicked through offline; the server itself (server/main.ts) never loads simulator code.
 */
if (process.env.SIMULATORS === 'on') {
  const { startDevSimulators } = await import('../sim/dev');
  const sims = await startDevSimulators({ ffmpegPath: process.env.FFMPEG_PATH });
  for (const line of sims.lines) process.stdout.write(`${line}\n`);
  // What the operator set explicitly wins (a real provider beside simulated platforms, say).
  for (const [k, v] of Object.entries(sims.env)) process.env[k] ??= v;
}
await import('../server/main');
export {};
