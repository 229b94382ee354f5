import { writeFileSync } from 'node:fs';
import { launchBrowser } from '../tests/helpers/browser';
import { startFoundationServer } from '../tests/e2e/foundation-panel';
import { seedCalendarPosts } from '../tests/helpers/calendar-posts';
import { signedInState } from './cold-load';
import { recordCpuAndTrace, type CpuProfile, type TraceEvent } from './cpu-trace';
import { userByLogin } from '../tests/helpers/db';

const DAY_MS = 24 * 3600_000;

/**
 * Where a cold /calendar month view's time goes (`npx tsx bench/calendar-profile.ts [runs]`): the calendar-draw
 * bench's page and seed, opened with Chromium's CPU profiler on (CDP Profiler) and the page's resource timing read
 * when the month is drawn. Prints each run's waterfall (request start → end, ms from navigation start), the long
 * tasks, and the CPU profile's self time by script (chunk) and by function; writes the last profile to
 * .bench/calendar.cpuprofile (open it in Chromium's DevTools). A tool, not a benchmark: its figures include the
 * profiler's own cost.
 */
const runs = Number(process.argv[2] ?? 2);
const server = await startFoundationServer();
const browser = await launchBrowser();
try {
  const admin = await userByLogin(server.tdb.db, 'admin');
  const now = new Date();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  await seedCalendarPosts(server.tdb.db, {
    owners: [admin.id],
    posts: 5_000,
    profiles: 40,
    start: monthStart,
    spanMs: 28 * DAY_MS,
  });
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({
      storageState: await signedInState(server.url),
      viewport: { width: 1440, height: 900 },
    });
    await context.addInitScript({
      content: `(() => {
        const tasks = (window.__tasks = []);
        new PerformanceObserver((l) => { for (const e of l.getEntries()) tasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
        const mo = new MutationObserver(() => {
          const el = document.querySelector('.kadr-more');
          if (el && el.checkVisibility()) { window.__ready = performance.now(); mo.disconnect(); }
        });
        mo.observe(document, { subtree: true, childList: true });
      })();`,
    });
    const page = await context.newPage();
    const recording = await recordCpuAndTrace(browser, context, page);
    await page.goto(`${server.url}/calendar`, { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as any).__ready !== undefined, null, { timeout: 30_000, polling: 25 });
    const { profile, events, raw } = await recording.stop();
    writeFileSync('.bench/calendar-trace.json', raw);
    const info = await page.evaluate(() => ({
      ready: (window as any).__ready as number,
      tasks: (window as any).__tasks as Array<[number, number]>,
      marks: performance
        .getEntriesByType('mark')
        .concat(performance.getEntriesByType('measure'))
        .map((m) => [m.name, Math.round(m.startTime), Math.round(m.duration)]),
      resources: performance
        .getEntriesByType('resource')
        .map((r) => r as PerformanceResourceTiming)
        .map((r) => [
          r.name.replace(location.origin, ''),
          Math.round(r.startTime),
          Math.round(r.responseEnd),
          r.encodedBodySize,
        ]),
      nav: performance.getEntriesByType('navigation').map((n) => {
        const t = n as PerformanceNavigationTiming;
        return { responseEnd: Math.round(t.responseEnd), domInteractive: Math.round(t.domInteractive) };
      })[0],
    }));
    console.log(`\n-- run ${run + 1}: drawn at ${info.ready.toFixed(0)} ms; nav ${JSON.stringify(info.nav)}`);
    for (const [name, s, e, size] of info.resources as Array<[string, number, number, number]>)
      console.log(
        `  ${String(s).padStart(5)} → ${String(e).padStart(5)}  ${String(size).padStart(7)} B  ${name.slice(0, 110)}`,
      );
    console.log(`  long tasks [start, ms]: ${JSON.stringify(info.tasks)}`);
    if (info.marks.length) console.log(`  marks: ${JSON.stringify(info.marks)}`);
    const windows = tasks(events);
    summarise(profile);
    for (const w of windows) inclusive(profile, w, events);
    writeFileSync('.bench/calendar.cpuprofile', JSON.stringify(profile));
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}

function summarise(p: CpuProfile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++)
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const [id, ms] of self) {
    const f = byId.get(id)!.callFrame;
    const url = f.url.replace(/^.*\/assets\//, '') || `(${f.functionName || 'native'})`;
    byUrl.set(url, (byUrl.get(url) ?? 0) + ms);
    const fn = `${f.functionName || '(anon)'} ${url}:${f.lineNumber}:${f.columnNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `    ${v.toFixed(1).padStart(7)} ms  ${k.slice(0, 120)}`)
      .join('\n');
  console.log(
    `  CPU self time by script (${((p.endTime - p.startTime) / 1000).toFixed(0)} ms profiled):\n${top(byUrl, 15)}`,
  );
  console.log(`  by function:\n${top(byFn, 25)}`);
}

/** The renderer main thread's tasks over 30 ms: when (ms from navigation start), how long, and what ran in them. */
function tasks(events: TraceEvent[]): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  const nav = events.find(
    (e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL).includes('/calendar'),
  );
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav?.pid);
  if (!nav || !main) return (console.log('  (no renderer main thread in the trace)'), windows);
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const t0 = nav.ts;
  for (const task of own.filter(
    (e) => e.name === 'RunTask' && e.dur! > Number(process.env.TASK_MS ?? 30) * 1000 && e.ts >= t0,
  )) {
    const end = task.ts + task.dur!;
    const inner = own.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
    const what = new Map<string, number>();
    for (const e of inner) {
      const d = e.args?.data ?? {};
      const url = String(d.url ?? d.scriptName ?? '').replace(/^.*\/assets\//, '');
      const key =
        e.name === 'EvaluateScript' ||
        e.name === 'v8.compile' ||
        e.name === 'v8.compileModule' ||
        e.name === 'v8.evaluateModule'
          ? `${e.name} ${url}`
          : e.name === 'FunctionCall'
            ? `FunctionCall ${d.functionName || ''} ${url}`
            : e.name === 'TimerFire' || e.name === 'EventDispatch' || e.name === 'FireAnimationFrame'
              ? `${e.name} ${d.type ?? ''}`
              : e.name;
      if (
        [
          'Layout',
          'UpdateLayoutTree',
          'Paint',
          'ParseHTML',
          'MajorGC',
          'MinorGC',
          'V8.GC_SCAVENGER',
          'PrePaint',
          'Layerize',
        ].includes(e.name) ||
        e.name === 'FunctionCall' ||
        e.name.startsWith('v8.') ||
        e.name === 'EvaluateScript' ||
        e.name === 'TimerFire' ||
        e.name === 'EventDispatch' ||
        e.name === 'FireAnimationFrame' ||
        e.name === 'ResourceReceivedData' ||
        e.name === 'ParseAuthorStyleSheet'
      )
        what.set(key, (what.get(key) ?? 0) + e.dur! / 1000);
    }
    const parts = [...what]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, v]) => `${k.trim()} ${v.toFixed(0)}`);
    if (task.dur! > 50_000) windows.push([task.ts, task.ts + task.dur!]);
    console.log(
      `  task ${((task.ts - t0) / 1000).toFixed(0).padStart(5)} +${(task.dur! / 1000).toFixed(0).padStart(4)} ms: ${parts.join('; ')}`,
    );
  }
  return windows;
}

/** Inclusive time by function (each frame counted once per sample) in the samples within a task's window. */
function inclusive(p: CpuProfile, [from, to]: [number, number], events: TraceEvent[]) {
  const nav = events.find(
    (e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL).includes('/calendar'),
  )!;
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const total = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    if (t < from || t > to) continue;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let id: number | undefined = p.samples[i]!; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (!f.functionName) continue;
      const k = `${f.functionName} ${f.url.replace(/^.*\/assets\//, '')}:${f.lineNumber}`;
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const top = [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 40));
  console.log(
    `  inclusive in task at ${((from - nav.ts) / 1000).toFixed(0)} (+${((to - from) / 1000).toFixed(0)} ms):`,
  );
  for (const [k, v] of top) console.log(`    ${v.toFixed(1).padStart(7)}  ${k.slice(0, 130)}`);
}
