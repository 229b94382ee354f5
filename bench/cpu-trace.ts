import type { Browser, BrowserContext, Page } from 'playwright-core';

/** A node of V8's sampling profile (CDP Profiler). */
export type CpuNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
};
export type CpuProfile = {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

/** One event of Chromium's performance trace. */
export type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: any;
};

/**
 * Starts V8's sampling profiler (0.2 ms) and Chromium's performance trace (timeline, V8, loading and user timing) on
 * `page`, for the bench's "where does a cold page's time go" tools; `stop()` ends both and gives the profile, the
 * trace's events and the raw trace (to open in Chromium's Performance panel).
 */
export async function recordCpuAndTrace(browser: Browser, context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'v8.execute',
      'blink.user_timing',
      'loading',
    ],
  });
  return {
    stop: async () => {
      const raw = await browser.stopTracing();
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
      const events = (JSON.parse(raw.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
      return { profile, events, raw };
    },
  };
}
