import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { client } from './support/http.ts';
import { freePort, type Running, startServe, stopServe } from './support/process.ts';

/**
 * The walk of a newcomer: `tms serve` on ports other than the defaults (PORT, MQTT_PORT), the demo
 * it seeds, and the commands it prints, run as printed in a shell that knows nothing of the
 * service's settings. The next start prints them again, reading the secrets from the saved file.
 * Nothing here is timed: the waits only guard against something that never happens.
 */

/** What a pasted command gets: a fresh shell's environment, none of the service's settings. */
const SHELL_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? tmpdir(),
  // npm would look for a newer npm on the network.
  npm_config_update_notifier: 'false',
};

/** Waits until `found` answers something, checking every 200 ms; the guard is long, for a loaded machine. */
async function until<T>(found: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not happen`);
}

interface Section {
  heading: string;
  commands: string[];
}

/**
 * The "Try it" part of the start-up message: each heading (two spaces in, ending with a colon)
 * and its commands (four spaces in; a line ending with a backslash goes on on the next).
 */
function tryIt(output: string): Section[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.startsWith('Try it'));
  assert.ok(start >= 0, output);
  const sections: Section[] = [];
  let continued = false;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    if (continued) {
      const commands = sections.at(-1)!.commands;
      commands[commands.length - 1] += `\n${line}`;
    } else if (/^ {4}\S/.test(line)) sections.at(-1)!.commands.push(line.slice(4));
    else if (/^ {2}\S.*:$/.test(line)) sections.push({ heading: line.trim(), commands: [] });
    else assert.fail(`neither a heading nor a command: ${line}`);
    continued = line.endsWith('\\');
  }
  return sections;
}

function section(sections: Section[], starts: string): string[] {
  const found = sections.find((one) => one.heading.startsWith(starts));
  assert.ok(found, `a "${starts}" section in ${JSON.stringify(sections)}`);
  return found.commands;
}

/** Runs pasted commands in one shell, as a person would in one terminal; its standard output. */
async function paste(commands: string[]): Promise<string> {
  const child = spawn('bash', ['-c', ['set -eo pipefail', ...commands].join('\n')], { env: SHELL_ENV });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, `${commands.join('\n')}\n…${stdout.slice(-3000)}\n${stderr}`);
  return stdout;
}

/** A long-running pasted command (the simulated locker), in a process group of its own. */
function pasteInSecondTerminal(command: string): { child: ChildProcess; output: () => string } {
  const child = spawn('bash', ['-c', command], { env: SHELL_ENV, detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** The JSON documents a run of commands printed, one after another (curl adds no newline). */
function documents(stdout: string): unknown[] {
  const found: unknown[] = [];
  let depth = 0;
  let from = -1;
  let inString = false;
  for (let i = 0; i < stdout.length; i++) {
    const char = stdout[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"' && depth > 0) inString = true;
    else if (char === '{') {
      if (depth === 0) from = i;
      depth++;
    } else if (char === '}' && depth > 0 && --depth === 0) found.push(JSON.parse(stdout.slice(from, i + 1)));
  }
  return found;
}

describe('the commands the demo prints', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-demo-commands-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('run as printed against a service on other ports than the defaults, at the first start and the next', async () => {
    let password: string | undefined;
    for (const start of ['first', 'next'] as const) {
      const mqttPort = await freePort();
      const running = await startServe({
        TMS_DATA_DIR: dataDir,
        MQTT_PORT: String(mqttPort),
        // A device on a loaded machine has all the time it needs to answer an opening.
        LOCKER_COMMAND_TTL_MS: '300000',
      });
      try {
        const saved = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
        password ??= saved.password as string;
        await walk(running, { start, mqttPort, password: password! });
        if (start === 'first') await walkTheDocs(running, password!);
      } finally {
        assert.equal(await stopServe(running), 0);
      }
    }
  });

  async function walk(
    running: Running,
    { start, mqttPort, password }: { start: 'first' | 'next'; mqttPort: number; password: string },
  ) {
    const output = running.output();
    const port = Number(new URL(running.baseUrl).port);
    const demoText = output.slice(output.indexOf('Demo'), output.indexOf('TMS listening on'));
    if (start === 'first') assert.ok(demoText.includes(`Password for every demo account: ${password}`));
    else {
      assert.ok(!output.includes(password), 'the password is printed at the first start only');
      assert.match(demoText, /Demo sign-in details are in/);
    }
    // Every address printed is the one the service runs at.
    const http = [...demoText.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
    assert.ok(http.length > 5);
    assert.deepEqual([...new Set(http)], [port]);
    assert.deepEqual(
      [...new Set([...demoText.matchAll(/mqtt:\/\/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1])))],
      [mqttPort],
    );
    const api = client(running.baseUrl);
    const map = /Published map "Today in Paris": (\S+)/.exec(demoText)![1]!;
    assert.equal((await fetch(map)).status, 200, map);
    const booking = /Booking page [^:]*: (\S+)/.exec(demoText)![1]!;
    assert.equal((await fetch(booking)).status, 200, booking);

    const sections = tryIt(output);
    const signIn = section(sections, 'Sign in');
    const me = documents(await paste(signIn));
    assert.deepEqual((me.at(-1) as { user: { email: string } }).user.email, 'admin@demo.test');
    const admin = (await api.post('/api/v1/user/login', { email: 'admin@demo.test', password })).body
      .access_token as string;

    // Lockers: the simulated device in a second terminal, then the opening from the first.
    const [simulate] = section(sections, 'Lockers');
    const [reserve, open] = section(sections, 'then reserve');
    assert.ok(simulate && reserve && open, JSON.stringify(sections));
    const device = pasteInSecondTerminal(simulate);
    try {
      await until(
        () => (device.output().includes('connected to') ? true : undefined),
        `the simulated device connecting:\n${device.output()}`,
      );
      assert.ok(device.output().includes(`connected to mqtt://127.0.0.1:${mqttPort}`), device.output());
      await until(async () => {
        const site = await api.get('/api/v1/lockers/sites/1', { token: admin });
        return site.body.site?.devices?.[0]?.online ? true : undefined;
      }, 'the device online');
      const [opening] = documents(await paste([...signIn, reserve, open])).slice(-1) as Array<{
        opening: string;
        booking: { reference: string };
        command: { id: string };
      }>;
      assert.equal(opening?.opening, 'deposit', JSON.stringify(opening));
      await until(async () => {
        const now = await api.get(`/api/v1/lockers/open/${opening!.booking.reference}`);
        return now.body.command?.status === 'acked' ? true : undefined;
      }, 'the compartment opening');
      assert.ok(device.output().includes(`ack ${opening!.command.id} ok`), device.output());
    } finally {
      await stopGroup(device.child);
    }
    await until(async () => {
      const site = await api.get('/api/v1/lockers/sites/1', { token: admin });
      return site.body.site?.devices?.[0]?.online === false ? true : undefined;
    }, 'the device offline once stopped');

    // Third-party delivery: the push, accepted by the connection's rules, then listed.
    const pushed = documents(await paste([...signIn, ...section(sections, 'Third-party')]));
    const push = pushed.at(-2) as { received: number; repeated: number; accepted: number };
    assert.deepEqual(
      { received: push.received, repeated: push.repeated, accepted: push.accepted },
      start === 'first'
        ? { received: 1, repeated: 0, accepted: 1 }
        : { received: 0, repeated: 1, accepted: 0 },
    );
    const listed = pushed.at(-1) as {
      provider_orders: Array<{ provider_order_id: string; state: string; order_id: number }>;
    };
    const tried = listed.provider_orders.find((order) => order.provider_order_id === 'TRY-1');
    assert.equal(tried?.state, 'accepted', JSON.stringify(listed));
    assert.equal((await api.get(`/api/v1/client/orders/${tried.order_id}`, { token: admin })).status, 200);

    // SMS: the STOP played in from the command line, through the running service's database.
    const stopped = await paste(section(sections, 'SMS'));
    assert.match(stopped, /from \+33612000001 taken \(STOP\): subscriber \d+ is unsubscribed/);
    const subscribers = await api.get('/api/v1/sms/subscribers', { token: admin });
    const camille = subscribers.body.subscribers.find(
      (one: { phone: string }) => one.phone === '+33612000001',
    );
    assert.equal(camille?.status, 'unsubscribed', JSON.stringify(subscribers.body));
    if (start === 'first')
      await until(
        () => (/\[sms\] \S+ -> \+33612000001: .*START/.test(running.output()) ? true : undefined),
        'the STOP confirmation in the log',
      );
  }

  /**
   * docs/demo.md, every block as written for a plain `npm start`, with the addresses of this
   * service put in (and curl told to fail on an error answer, which the page's calls never get).
   */
  async function walkTheDocs(running: Running, password: string) {
    const api = client(running.baseUrl);
    const admin = (await api.post('/api/v1/user/login', { email: 'admin@demo.test', password })).body
      .access_token as string;
    const page = await readFile(new URL('../docs/demo.md', import.meta.url), 'utf8');
    const file = path.join(dataDir, 'demo-credentials.json');
    const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
      match[1]!
        .replaceAll('http://127.0.0.1:3000', running.baseUrl)
        .replaceAll('.data/demo-credentials.json', `'${file}'`)
        .replaceAll('npm run tms --', `TMS_DATA_DIR='${dataDir}' npm run tms --`)
        .replaceAll('curl -s ', 'curl -s --fail-with-body '),
    );
    const [simulator, ...more] = blocks.filter((block) => block.includes('locker simulate'));
    assert.ok(simulator && more.length === 0);
    // The page's simulated device finds the service's broker itself, through TMS_DATA_DIR.
    const device = pasteInSecondTerminal(simulator);
    try {
      await until(async () => {
        const site = await api.get('/api/v1/lockers/sites/1', { token: admin });
        return site.body.site?.devices?.[0]?.online ? true : undefined;
      }, `the page's simulated device online:\n${device.output()}`);
      const said = await paste(blocks.filter((block) => block !== simulator));
      const answers = documents(said) as Array<{
        opening?: string;
        booking?: { reference: string };
        command?: { id: string };
        matched?: boolean;
      }>;
      const opening = answers.find((answer) => answer.opening === 'deposit');
      assert.ok(opening?.booking && opening.command, said);
      await until(async () => {
        const now = await api.get(`/api/v1/lockers/open/${opening.booking!.reference}`);
        return now.body.command?.status === 'acked' ? true : undefined;
      }, 'the opening of the page');
      assert.ok(device.output().includes(`ack ${opening.command!.id} ok`), device.output());

      const decided = (await api.get('/api/v1/third-party/orders', { token: admin })).body
        .provider_orders as Array<{
        id: number;
        provider_order_id: string;
        state: string;
        decided_by: string;
      }>;
      const byRef = new Map(decided.map((order) => [order.provider_order_id, order]));
      assert.deepEqual(
        ['TRY-PARIS', 'TRY-LYON'].map((ref) => [byRef.get(ref)?.state, byRef.get(ref)?.decided_by]),
        [
          ['accepted', 'rules'],
          ['accepted', 'dispatcher'],
        ],
      );
      await until(async () => {
        const lyon = await api.get(`/api/v1/third-party/orders/${byRef.get('TRY-LYON')!.id}`, {
          token: admin,
        });
        return lyon.body.status_pushes?.[0]?.sent_at ? true : undefined;
      }, 'the status change sent back to the marketplace');

      assert.match(said, /from \+33612000001 taken \(START\): subscriber \d+ is confirmed/);
      assert.match(said, /from \+33612000002 taken \(HELP\)/);
      await until(
        () => (/\[sms\] \S+ -> \+33612000002: Demo Parcels: help/.test(running.output()) ? true : undefined),
        'the HELP answer in the log',
      );
      assert.ok(
        answers.some((answer) => answer.matched === true),
        'the AfterShip push matched the parcel',
      );
    } finally {
      await stopGroup(device.child);
    }
  }
});
