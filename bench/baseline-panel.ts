import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The previous release, the figures' baseline. */
export const BASELINE_REF = process.env.BENCH_BASELINE ?? 'b8e38a0';

/**
 * The previous release's checkout under .bench/ (git archive of BASELINE_REF, this tree's node_modules, its
 * panel built with its own vite config), made once and reused. Returns its directory.
 */
export function baselineCheckout(ref = BASELINE_REF): string {
  const dir = resolve('.bench', `baseline-${ref}`);
  if (existsSync(join(dir, 'dist', 'index.html'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execSync(`git archive ${ref} | tar -x -C ${JSON.stringify(dir)}`, { stdio: 'inherit' });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  execSync('npx vite build --logLevel warn', { cwd: dir, stdio: 'inherit' });
  return dir;
}
