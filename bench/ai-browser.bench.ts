import { readdirSync, readFileSync } from 'node:fs';
import { createBrowserChatDriver, siteAdapter } from '../server/ai/drivers/browser';
import type { SessionCtx } from '../server/ai/drivers/chat-driver';
import { startChatSim } from '../sim/ai/chat-sim';

const SESSIONS = 5;
const MB = 1024 * 1024;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Proc = { pid: number; ppid: number; comm: string };

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      out.push({ pid: Number(name), ppid, comm });
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Bytes of `field` (VmRSS in status, Pss in smaps_rollup) of one process; 0 when it is gone. */
function memOf(pid: number, file: 'status' | 'smaps_rollup', field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Chromium's process tree under this node process, and node itself: RSS summed (over-counts shared pages) and PSS. */
function measure() {
  const all = processes();
  const kids = new Map<number, Proc[]>();
  for (const p of all) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p]);
  const tree: Proc[] = [];
  const walk = (pid: number) => (kids.get(pid) ?? []).forEach((c) => (tree.push(c), walk(c.pid)));
  walk(process.pid);
  const chrome = tree.filter((p) => /chrom/i.test(p.comm));
  const sum = (ps: number[], f: 'status' | 'smaps_rollup', k: string) => ps.reduce((a, pid) => a + memOf(pid, f, k), 0);
  const pids = chrome.map((p) => p.pid);
  return {
    processes: chrome.length,
    chromeRss: sum(pids, 'status', 'VmRSS'),
    chromePss: sum(pids, 'smaps_rollup', 'Pss'),
    nodeRss: memOf(process.pid, 'status', 'VmRSS'),
    nodePss: memOf(process.pid, 'smaps_rollup', 'Pss'),
  };
}

const fmt = (b: number) => `${(b / MB).toFixed(0)} MB`;

/**
 * The browser driver's target: 5 active sessions (logged in, one answer each) in one Chromium within 2.5 GB.
 * Prints the RSS sum of Chromium's process tree plus node after each session, the per-context increment, and
 * PSS (shared pages split between processes: the closer figure of what the machine actually spends).
 */
export async function aiBrowserBench() {
  const sim = await startChatSim({ chunkDelayMs: 5 });
  const states = new Map<number, string>();
  const driver = createBrowserChatDriver({
    chromiumPath: CHROMIUM,
    site: siteAdapter('gpt', sim.url),
    maxContexts: SESSIONS,
    stateStore: { load: async (id) => states.get(id) ?? null, save: async (id, _p, json) => void states.set(id, json) },
  });
  try {
    const rows: Array<{ n: number; total: number; pss: number; processes: number }> = [];
    for (let n = 1; n <= SESSIONS; n++) {
      const email = `bench${n}@example.com`;
      sim.setAccount(email, { password: 'pw' });
      const s: SessionCtx = { sessionId: n, provider: 'gpt', email, password: 'pw', proxy: '' };
      const out = await driver.login(s);
      if (out.kind !== 'ready') throw new Error(`session ${n}: ${out.kind}`);
      await driver.send(s, [], `message from session ${n}`);
      const m = measure();
      rows.push({ n, total: m.chromeRss + m.nodeRss, pss: m.chromePss + m.nodePss, processes: m.processes });
      console.log(
        `  ${n} session(s): Chromium ${m.processes} processes RSS ${fmt(m.chromeRss)} + node ${fmt(m.nodeRss)}` +
          ` = ${fmt(m.chromeRss + m.nodeRss)} (PSS ${fmt(m.chromePss + m.nodePss)})`,
      );
    }
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    const perContext = (last.total - first.total) / (SESSIONS - 1);
    const perContextPss = (last.pss - first.pss) / (SESSIONS - 1);
    console.log(
      `  ${SESSIONS} active sessions in one Chromium: ${fmt(last.total)} RSS sum (target ≤ 2560 MB: ` +
        `${last.total <= 2.5 * 1024 * MB ? 'within' : 'OVER'}), PSS ${fmt(last.pss)}; ` +
        `per extra context +${fmt(perContext)} RSS, +${fmt(perContextPss)} PSS`,
    );
  } finally {
    await driver.close();
    await sim.close();
  }
}
