/**
 * What the service says about the demo at its start: the accounts, the demo's places, and
 * ready-to-paste commands to try it, each carrying the addresses the service was started with
 * (PORT, HOST, MQTT_PORT, PUBLIC_BASE_URL, TMS_DATA_DIR). At the first start the password and keys
 * are written out; at a later start the commands read them from demo-credentials.json, so they
 * are shown once only, and the commands still paste as they are.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_INBOUND } from './consolidation.ts';
import { DEMO_APP_CODE, DEMO_CREDENTIALS_FILE, type DemoCredentials } from './seed.ts';
import { demoPushedOrder } from './third-party.ts';

/** Where the running service is reached, for the commands to say. */
export interface DemoAddresses {
  /** The API and the pages (PUBLIC_BASE_URL, or the address the service listens on). */
  baseUrl: string;
  /** The MQTT broker a device connects to: the embedded one's actual port, or MQTT_URL. */
  brokerUrl: string;
  /** MQTT_TOPIC_PREFIX. */
  topicPrefix: string;
  /** TMS_DATA_DIR, absolute, for the commands that use the service's database; absent when it is the default. */
  dataDir?: string;
}

/** The first start writes the secrets out; a later one reads them from the saved file. */
export type DemoSecrets = { inline: true; savedIn?: string } | { file: string };

/** One subscriber of the demo list, who texts STOP in the SMS example. */
export const DEMO_SMS_TRY_PHONE = '+33612000001';
/** The reference of the order the third-party example pushes (a second push of it changes nothing). */
export const DEMO_PUSH_REF = 'TRY-1';
/** The push example's deadline: far ahead, so the example stays good. */
const DEMO_PUSH_RESPOND_BY = '2099-12-31T23:00:00.000Z';

/** The saved credentials of a demo seeded at an earlier start, or undefined when there are none to read. */
export async function readDemoCredentials(
  dataDir: string,
): Promise<{ credentials: DemoCredentials; file: string } | undefined> {
  const file = path.resolve(dataDir, DEMO_CREDENTIALS_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const credentials = JSON.parse(text) as DemoCredentials;
    if (typeof credentials.password !== 'string' || !Array.isArray(credentials.accounts)) return undefined;
    return { credentials, file };
  } catch {
    return undefined;
  }
}

/** A word the shell takes as it is: quoted unless it is plainly safe. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_\-.,:/@%+=]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Stands for a secret in a request body until the body is written out. */
const marker = (pointer: string) => `@@secret:${pointer}@@`;

/** How a secret reaches a command: written in it, or read from the saved file when the command runs. */
class Secrets {
  constructor(
    private readonly mode: DemoSecrets,
    private readonly credentials: DemoCredentials,
  ) {}

  get inline(): boolean {
    return 'inline' in this.mode;
  }

  private valueOf(pointer: string): string {
    let value: unknown = this.credentials;
    for (const key of pointer.split('.')) value = (value as Record<string, unknown>)[key];
    return String(value);
  }

  /** For a sentence: the secret itself, or where it is. */
  text(pointer: string): string {
    return 'inline' in this.mode ? this.valueOf(pointer) : `in ${this.mode.file} ("${pointer}")`;
  }

  /** One shell word holding the secret. */
  word(pointer: string): string {
    if ('inline' in this.mode) return shellQuote(this.valueOf(pointer));
    return `"$(node -p ${shellQuote(`require(process.argv[1]).${pointer}`)} ${shellQuote(this.mode.file)})"`;
  }

  /** One shell word holding a JSON body whose secret fields are marker(pointer). */
  json(body: unknown): string {
    const text = JSON.stringify(body);
    if ('inline' in this.mode)
      return shellQuote(
        text.replace(/"@@secret:([\w.]+)@@"/g, (_, pointer: string) => JSON.stringify(this.valueOf(pointer))),
      );
    const program = `JSON.stringify(${text.replace(/"@@secret:([\w.]+)@@"/g, 'require(process.argv[1]).$1')})`;
    return `"$(node -p ${shellQuote(program)} ${shellQuote(this.mode.file)})"`;
  }
}

/** Reads a JSON answer on standard input and prints what `expression` (JavaScript, over `it`) makes of it. */
const fromJson = (expression: string) =>
  `node -p ${shellQuote(`const it = JSON.parse(require("fs").readFileSync(0, "utf8")); ${expression}`)}`;

export function describeDemo(credentials: DemoCredentials, where: DemoAddresses, mode: DemoSecrets): string {
  const secrets = new Secrets(mode, credentials);
  const base = where.baseUrl;
  const lines = secrets.inline
    ? [
        'Demo data created: business "demo" with one account of every kind, drivers, orders and planned routes.',
        `Password for every demo account: ${credentials.password}`,
        ...('savedIn' in mode && mode.savedIn
          ? [
              `(saved with the keys below in ${mode.savedIn}, readable by you only: the next start prints these commands`,
              'again, reading them from there)',
            ]
          : []),
      ]
    : [
        `Demo business "demo", seeded at the first start. Demo sign-in details are in ${'file' in mode ? mode.file : ''}`,
        '(readable by you only; the commands below read the password and keys from there).',
        `Password for every demo account: ${secrets.text('password')}`,
      ];
  lines.push(
    ...credentials.accounts.map((account) => `  ${account.kind.padEnd(15)} ${account.email}`),
    `Allied business "${credentials.partner.business}" (shares its tracking with "demo"), same password:`,
    ...credentials.partner.accounts.map((account) => `  ${account.kind.padEnd(15)} ${account.email}`),
    `Customer app configuration: ${base}/api/v1/apps/${DEMO_APP_CODE}/clients/${credentials.business}/bootstrap`,
    `Published map "Today in Paris": ${base}/maps/${credentials.publicMap.link}`,
    `Maps for staff: ${base}/maps   Dispatch console: ${base}/dispatch`,
    `Booking page (no account; the code is written to this log): ${base}${pathOf(credentials.reservations.booking_page)}`,
    `Forwarding: ${DEMO_INBOUND.carrier} ${DEMO_INBOUND.tracking_number} announced for suite ${credentials.forwarding.suite}; AfterShip pushes go to`,
    `  ${base}/api/v1/consolidation/tracking-webhooks/${credentials.forwarding.business_id}/aftership with secret ${secrets.text('forwarding.secret')} (docs/consolidation.md)`,
    `SMS marketing: campaign ${credentials.sms.campaign_id} to four confirmed subscribers, each message written to this log (docs/sms-marketing.md)`,
    '',
    'Try it, in a shell in this checkout (docs/demo.md walks through every part of the demo):',
    ...tryIt(credentials, where, secrets),
  );
  return lines.join('\n');
}

/** The commands: four spaces in, a continued line six; each heading two spaces in, ending with a colon. */
function tryIt(credentials: DemoCredentials, where: DemoAddresses, secrets: Secrets): string[] {
  const base = where.baseUrl;
  const admin = credentials.accounts.find((account) => account.kind === 'client_admin')!;
  const json = "-H 'content-type: application/json'";
  const bearer = '-H "authorization: Bearer $TOKEN"';
  const tms = `${where.dataDir ? `TMS_DATA_DIR=${shellQuote(where.dataDir)} ` : ''}npm run tms --`;
  const lines = [
    '  Sign in as the business admin; TOKEN keeps the token for the commands after it:',
    `    TOKEN=$(curl -s -X POST ${base}/api/v1/user/login ${json} \\`,
    `      -d ${secrets.json({ email: admin.email, password: marker('password') })} | ${fromJson('it.access_token')})`,
    `    curl -s ${base}/api/v1/user/me ${bearer}`,
  ];
  const { locker } = credentials;
  const prefix = where.topicPrefix === 'tms' ? '' : ` --prefix ${shellQuote(where.topicPrefix)}`;
  lines.push(
    `  Lockers: play the Gare de Lyon bank (device ${locker.device_id}) with a simulated device, in a second terminal, until Ctrl-C:`,
    `    TMS_DEVICE_CREDENTIAL=${secrets.word('locker.credential')} npm run tms -- locker simulate --device ${locker.device_id} --compartments ${locker.compartments} --url ${shellQuote(where.brokerUrl)}${prefix}`,
    '  then reserve a small compartment and open it with its drop code (the device prints the command and its answer):',
    `    BOOKING=$(curl -s -X POST ${base}/api/v1/lockers/bookings ${bearer} ${json} \\`,
    `      -d ${shellQuote(JSON.stringify({ site_id: locker.site_id, size_class: 'S' }))})`,
    `    curl -s -X POST ${base}/api/v1/lockers/open ${json} \\`,
    `      -d "$(printf '%s' "$BOOKING" | ${fromJson('JSON.stringify({ reference: it.booking.reference, code: it.codes.drop_code })')})"`,
  );
  if (credentials.thirdParty) {
    const order = demoPushedOrder(DEMO_PUSH_REF, DEMO_PUSH_RESPOND_BY);
    lines.push(
      '  Third-party delivery: push an order as the demo marketplace does; the connection accepts it by its rules:',
      `    curl -s -X POST ${base}/api/v1/third-party/connections/${credentials.thirdParty.connection_id}/push ${json} \\`,
      `      -d ${secrets.json({ token: marker('thirdParty.push_token'), orders: [order] })}`,
      `    curl -s '${base}/api/v1/third-party/orders?state=accepted' ${bearer}`,
    );
  }
  lines.push(
    '  SMS marketing: Camille texts STOP; she is unsubscribed and the confirmation is written to this log:',
    `    ${tms} sms receive --business ${credentials.business} --from ${DEMO_SMS_TRY_PHONE} --text STOP`,
  );
  return lines;
}

/** A saved address's path: the service may now be reached elsewhere. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}
