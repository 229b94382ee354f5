import { spawn } from 'node:child_process';
import { basename } from 'node:path';
import { MediaError } from './media-error';

/** How much of stderr is kept: the tail only (an ffmpeg failure can print megabytes). */
const STDERR_KEEP_BYTES = 8192;
const STDERR_TAIL_LINES = 6;

/** The last non-empty lines of a stderr buffer, joined with ' | ' (what goes into an error message). */
export function stderrTail(stderr: string, lines = STDERR_TAIL_LINES): string {
  return stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' | ');
}

/** Spawns `bin args` (no shell), streams stdout to `onStdout`, keeps the stderr tail, honours `signal`. */
export function spawnChecked(
  bin: string,
  args: string[],
  signal: AbortSignal | undefined,
  onStdout: (chunk: string) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const tool = basename(bin);
    if (signal?.aborted) {
      reject(new MediaError('aborted', `${tool} aborted before start`, { cause: signal.reason }));
      return;
    }
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    let spawnError: Error | undefined;
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c: string) => onStdout(c));
    child.stderr.on('data', (c: string) => {
      stderr += c;
      if (stderr.length > STDERR_KEEP_BYTES * 2) stderr = stderr.slice(-STDERR_KEEP_BYTES);
    });
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (spawnError) {
        reject(new MediaError('spawn_failed', `cannot start ${bin}: ${spawnError.message}`, { cause: spawnError }));
      } else if (signal?.aborted) {
        reject(new MediaError('aborted', `${tool} aborted`, { exitCode: code, cause: signal.reason }));
      } else if (code === 0) {
        resolve();
      } else {
        const tail = stderrTail(stderr);
        reject(
          new MediaError(
            'failed',
            `${tool} failed (${code === null ? `signal ${sig}` : `exit ${code}`})${tail ? `: ${tail}` : ''}`,
            {
              exitCode: code,
              stderrTail: tail,
            },
          ),
        );
      }
    });
  });
}
