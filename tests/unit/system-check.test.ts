// scripts/system-check.sh against a fake system: a PATH holding only the programs each case gives it, so nothing
// real is looked at, installed or changed. `id`, `sudo` and `apt-get` are fakes too; the fake apt-get records
// its arguments and "installs" ffmpeg by writing fake executables.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(__dirname, '../../scripts/system-check.sh');
const BASH = execFileSync('bash', ['-c', 'command -v bash']).toString().trim();
const realBin = (name: string) =>
  execFileSync(BASH, ['-c', `command -v ${name}`])
    .toString()
    .trim();

let dir: string;
let bin: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'system-check-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  // The install path runs `env DEBIAN_FRONTEND=… apt-get …`; the fake apt-get uses chmod.
  for (const name of ['env', 'chmod']) symlinkSync(realBin(name), join(bin, name));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fake(name: string, body = 'exit 0') {
  writeFileSync(join(bin, name), `#!${BASH}\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}
const notRootNoSudo = () => {
  fake('id', 'echo 1000');
  fake('sudo', 'exit 1');
  fake('apt-get', `echo "$@" >> ${dir}/apt.log; exit 1`);
};
const aptLog = () => (existsSync(join(dir, 'apt.log')) ? readFileSync(join(dir, 'apt.log'), 'utf8') : '');
// A fake apt-get that records its calls and, on install, puts fake ffmpeg and ffprobe on PATH.
const installingAptGet = () =>
  fake(
    'apt-get',
    [
      `echo "$@" >> ${dir}/apt.log`,
      'if [ "$1" = install ]; then',
      `  for p in ffmpeg ffprobe; do printf '#!${BASH}\\nexit 0\\n' > ${bin}/$p; chmod 755 ${bin}/$p; done`,
      'fi',
    ].join('\n'),
  );

function run(mode: string, env: Record<string, string> = {}) {
  const r = spawnSync(BASH, [SCRIPT, mode], { env: { PATH: bin, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/system-check.sh', () => {
  it('stops at once without ffmpeg for a user who is not root and has no sudo, naming the command', () => {
    notRootNoSudo();
    const r = run('start');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'Missing Debian packages: ffmpeg. Run: sudo apt-get update && sudo apt-get install -y ffmpeg && npm start\n',
    );
    expect(aptLog()).toBe('');
  });

  it('in test mode names ffmpeg and the fonts as well when both are missing', () => {
    notRootNoSudo();
    fake('chromium');
    fake('fc-list', 'echo "/usr/share/fonts/x/Other.ttf: Other:style=Book"');
    const r = run('test', { CHROMIUM_PATH: join(bin, 'chromium') });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'Missing Debian packages: ffmpeg fonts-dejavu-core fonts-noto-color-emoji. Run: sudo apt-get update && ' +
        'sudo apt-get install -y ffmpeg fonts-dejavu-core fonts-noto-color-emoji && npm test\n',
    );
  });

  it('counts ffprobe alone missing as the ffmpeg package missing', () => {
    notRootNoSudo();
    fake('ffmpeg');
    const r = run('start');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sudo apt-get install -y ffmpeg && npm start');
  });

  it('exits 0 quietly when every program is there', () => {
    notRootNoSudo();
    for (const name of ['ffmpeg', 'ffprobe', 'chromium']) fake(name);
    fake(
      'fc-list',
      'echo "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf: DejaVu Sans:style=Book"; ' +
        'echo "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf: Noto Color Emoji:style=Regular"',
    );
    for (const mode of ['start', 'test']) {
      const r = run(mode);
      expect(r).toEqual({ status: 0, stdout: '', stderr: '' });
    }
    expect(aptLog()).toBe('');
  });

  it('honours FFMPEG_PATH and FFPROBE_PATH: present ones pass, a missing one is named', () => {
    notRootNoSudo();
    fake('my-ffmpeg');
    fake('my-ffprobe');
    const paths = { FFMPEG_PATH: join(bin, 'my-ffmpeg'), FFPROBE_PATH: join(bin, 'my-ffprobe') };
    expect(run('start', paths)).toEqual({ status: 0, stdout: '', stderr: '' });
    const r = run('start', { ...paths, FFPROBE_PATH: join(dir, 'nope') });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `FFPROBE_PATH=${join(dir, 'nope')} is not an executable: fix or unset FFPROBE_PATH, then run npm start again.\n`,
    );
  });

  it('as root says what it installs in one line, then installs it with apt-get', () => {
    fake('id', 'echo 0');
    installingAptGet();
    const r = run('start');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Installing Debian packages: ffmpeg (apt-get)\n');
    expect(aptLog()).toBe('update -qq\ninstall -y -qq --no-install-recommends ffmpeg\n');
  });

  it('with passwordless sudo installs through sudo', () => {
    fake('id', 'echo 1000');
    fake('sudo', `echo "sudo $*" >> ${dir}/sudo.log; [ "$1" = -n ] && shift; "$@"`);
    installingAptGet();
    const r = run('start');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Installing Debian packages: ffmpeg (apt-get via sudo)\n');
    expect(readFileSync(join(dir, 'sudo.log'), 'utf8')).toContain(
      'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg',
    );
  });

  it('fails naming what is still missing when apt-get did not provide it', () => {
    fake('id', 'echo 0');
    fake('apt-get', `echo "$@" >> ${dir}/apt.log`);
    const r = run('start');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Still missing after apt-get install: ffmpeg. Run: sudo apt-get install -y ffmpeg\n');
  });
});
