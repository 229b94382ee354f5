import { startDevSimulators } from './dev';

/**
 * `npm run sim`: every simulator on fixed ports from SIM_PORT_BASE (default 4100), for a server started
 * elsewhere with SIMULATOR_URL=http://127.0.0.1:<base> and the credentials printed here.
 */
const base = Number(process.env.SIM_PORT_BASE ?? 4100);
const sims = await startDevSimulators({ portBase: base, ffmpegPath: process.env.FFMPEG_PATH });
for (const line of sims.lines) console.log(line);
const platformHosts = /^(YOUTUBE|TIKTOK|INSTAGRAM)_.*_BASE_URL$/;
console.log('\nEnvironment for the server (SIMULATOR_URL stands for every platform base URL):');
console.log(`SIMULATOR_URL=http://127.0.0.1:${base}`);
for (const [k, v] of Object.entries(sims.env)) if (!platformHosts.test(k)) console.log(`${k}=${v}`);
const stop = () => void sims.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
