import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { resolve } from 'node:path';
import { launchBrowser } from '../tests/helpers/browser';
import { signedInState } from './cold-load';
import { recordCpuAndTrace } from './cpu-trace';
import { readySelectorOf, servePanel } from './served-panel';

/**
 * Where one cold page's main-thread time goes: `npx tsx bench/trace-cold.ts /users [checkout dir]` (the checkout's
 * built dist/, this tree by default). Starts that checkout's real server, opens the page signed in (but /login) in a
 * fresh context with Chromium's trace on, and prints the renderer main thread's tasks of 8 ms or more (start after
 * navigation, length, and what they spent it on: compiling, running scripts, style and layout, garbage collection),
 * the totals until the page was usable, and each script's share of the running time (V8's sampling profiler).
 * `TRACE=/tmp/cold.json` also writes the raw trace (open it in Chromium's Performance panel).
 */
const path = process.argv[2] ?? '/users';
const selector = readySelectorOf(path);
const dir = resolve(process.argv[3] ?? '.');
const server = await servePanel(dir);
const url = server.url;

const browser = await launchBrowser();
try {
  const context = await browser.newContext({
    storageState: path === '/login' ? undefined : await signedInState(url),
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript({
    content: `new MutationObserver((_, o) => { if (document.querySelector(${JSON.stringify(selector)})) { window.__ready = performance.now(); o.disconnect(); } }).observe(document, { subtree: true, childList: true });`,
  });
  const page = await context.newPage();
  const recording = await recordCpuAndTrace(browser, context, page);
  await page.goto(url + path);
  await page.waitForFunction(() => (window as any).__ready !== undefined, null, { timeout: 30_000 });
  const ready = await page.evaluate(() => (window as any).__ready as number);
  const { profile, events, raw } = await recording.stop();
  if (process.env.TRACE) writeFileSync(process.env.TRACE, raw);

  // The renderer's main thread, and navigation start on its clock.
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url + path);
  if (!nav) throw new Error('no navigationStart of the page in the trace');
  const mainThread = { pid: nav.pid, tid: nav.tid };
  const onMain = events.filter((e) => e.pid === mainThread.pid && e.tid === mainThread.tid && e.ph === 'X' && e.dur);
  const t0 = nav.ts;
  const end = t0 + ready * 1000;
  const kind = (name: string): string | undefined => {
    if (/Compile|Parse(?!HTML)|v8\.parse|compile/i.test(name)) return 'compile';
    if (
      /^(EvaluateScript|v8\.run|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|v8\.callFunction|RunMicrotasks|v8\.evaluateModule)$/.test(
        name,
      )
    )
      return 'script';
    if (
      /^(UpdateLayoutTree|Layout|RecalculateStyles|ScheduleStyleRecalculation|PrePaint|Paint|Layerize|UpdateLayer|CommitLoad)$/.test(
        name,
      )
    )
      return 'style+layout';
    if (/GC|Scavenge|MarkCompact|MinorMS/i.test(name)) return 'gc';
    if (name === 'ParseHTML') return 'html';
    return undefined;
  };
  const tops = onMain.filter((e) => /RunTask|ThreadControllerImpl::RunTask/.test(e.name) && e.ts < end);
  const totals: Record<string, number> = {};
  let busy = 0;
  console.log(`${path}: usable at ${ready.toFixed(0)} ms`);
  console.log('  start    ms  what (ms)');
  for (const task of tops) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    // Self time per kind: each event's duration minus its children's that have a kind.
    const by: Record<string, number> = {};
    for (const e of inside) {
      const k = kind(e.name);
      if (!k) continue;
      const kids = inside.filter(
        (c) =>
          c !== e && kind(c.name) && c.ts >= e.ts && c.ts + c.dur! <= e.ts + e.dur! && c.ts + c.dur! - c.ts <= e.dur!,
      );
      // only direct-ish: subtract children not nested in another kind child
      const direct = kids.filter(
        (c) => !kids.some((p) => p !== c && p.ts <= c.ts && p.ts + p.dur! >= c.ts + c.dur! && p.dur! > c.dur!),
      );
      by[k] = (by[k] ?? 0) + (e.dur! - direct.reduce((s, c) => s + c.dur!, 0)) / 1000;
    }
    busy += task.dur! / 1000;
    for (const [k, v] of Object.entries(by)) totals[k] = (totals[k] ?? 0) + v;
    if (task.dur! >= 8000) {
      const parts = Object.entries(by)
        .filter(([, v]) => v >= 1)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ');
      console.log(
        `  ${((task.ts - t0) / 1000).toFixed(0).padStart(5)} ${(task.dur! / 1000).toFixed(0).padStart(5)}  ${parts}`,
      );
    }
  }
  console.log(
    `until usable: main thread busy ${busy.toFixed(0)} ms of ${ready.toFixed(0)}; ` +
      Object.entries(totals)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', '),
  );

  // The sampling profile: self time per script and the heaviest functions, until usable.
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t > end) break;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  // A build with source maps (`npx vite build --sourcemap`) names each function's source file and line.
  const maps = new Map<string, TraceMap | undefined>();
  const where = (script: string, line: number, column: number) => {
    const file = resolve(dir, 'dist' + script + '.map');
    if (!maps.has(file)) maps.set(file, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : undefined);
    const map = maps.get(file);
    const at = map && line >= 0 ? originalPositionFor(map, { line: line + 1, column }) : undefined;
    return at?.source
      ? `${at.source.replace(/^.*node_modules\//, '')}:${at.line} (${at.name ?? ''})`
      : `${script}:${line}:${column}`;
  };
  // Each sample's time (the trace's clock) and node, to name what the long tasks ran.
  const stamped: Array<[number, number]> = [];
  for (let i = 0, at = profile.startTime; i < profile.samples.length; i++)
    stamped.push([(at += profile.timeDeltas[i]), profile.samples[i]]);
  const nameOf = (id: number) => {
    const f = nodes.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url ? where(new URL(f.url).pathname, f.lineNumber, f.columnNumber) : ''}`;
  };
  console.log('tasks of 50 ms or more, their heaviest functions (ms):');
  for (const task of tops.filter((x) => x.dur! >= 50_000)) {
    const inTask = new Map<string, number>();
    for (let i = 0; i < stamped.length - 1; i++) {
      const [at, id] = stamped[i]!;
      if (at < task.ts || at > task.ts + task.dur!) continue;
      const name = nameOf(id);
      inTask.set(name, (inTask.get(name) ?? 0) + (stamped[i + 1]![0] - at));
    }
    console.log(`  task at ${((task.ts - t0) / 1000).toFixed(0)} ms, ${(task.dur! / 1000).toFixed(0)} ms:`);
    for (const [n, us] of top(inTask, 8)) console.log(`    ${(us / 1000).toFixed(0).padStart(5)}  ${n}`);
  }
  const byScript = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const [id, us] of self) {
    const f = nodes.get(id)!.callFrame;
    const script = f.url ? new URL(f.url).pathname : `(${f.functionName || 'program'})`;
    byScript.set(script, (byScript.get(script) ?? 0) + us);
    const fn = `${f.functionName || '(anonymous)'} ${where(script, f.lineNumber, f.columnNumber)}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  }
  console.log('self time by script (ms):');
  for (const [s, us] of top(byScript, 20)) console.log(`  ${(us / 1000).toFixed(0).padStart(5)}  ${s}`);
  console.log('heaviest functions (ms):');
  for (const [s, us] of top(byFn, Number(process.env.TOP ?? 25)))
    console.log(`  ${(us / 1000).toFixed(0).padStart(5)}  ${s}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
