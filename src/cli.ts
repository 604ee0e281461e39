import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { addReadCommands } from './cli-read-commands.ts';
import type { Config } from './config.ts';
import type { RunningDatabase } from './database.ts';
import type { AccountsService } from './modules/accounts/index.ts';
import { ACCOUNT_KINDS, type AccountKind } from './platform/catalog/operation.ts';
import { isAppError } from './platform/errors.ts';
import type { Services } from './services.ts';

// Only commander and a few constants load up front: every command imports what it needs in its
// action, so `--help` starts nothing and an account command does not load the whole service.

/** Where a command reads its settings and input and writes what it says: the process's, or a test's. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** The whole of standard input (read only by a command that takes a password from it). */
  stdin(): string;
}

/** The accounts module alone: what the business, user and token commands use. */
async function accountsOf(config: Config): Promise<AccountsService> {
  const [{ AccountsService }, { systemClock }] = await Promise.all([
    import('./modules/accounts/index.ts'),
    import('./platform/clock.ts'),
  ]);
  return new AccountsService(systemClock, { tokenTtlHours: config.tokenTtlHours, login: config.login });
}

/** Every module, wired as the service wires them. */
async function servicesOf(config: Config): Promise<Services> {
  const [{ createServices }, { systemClock }] = await Promise.all([
    import('./services.ts'),
    import('./platform/clock.ts'),
  ]);
  return createServices(config, systemClock);
}

/** A month as YYYY-MM, read as its first instant in UTC. */
function month(value: string): Date {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be a month as YYYY-MM (2025-01)');
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
}

/** A URL as it may be printed: without the password it may carry. */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('must be a whole number above 0');
  return Number(value);
}

/**
 * Runs one `tms` command line (argv as process.argv: node and the script first). It resolves with
 * the exit code the process must end with at once (an error, the help, the version), or with
 * nothing when the command ran its course: the process then ends by itself, or keeps serving.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number | undefined> {
  try {
    await buildProgram(io).parseAsync(argv);
    return undefined;
  } catch (error) {
    // Commander has written its own message (or the help) already; answered before any await, so
    // that the process ends before a closed pipe (`tms --help | head`) can raise an error.
    if (error instanceof CommanderError && !(error instanceof InvalidArgumentError)) return error.exitCode;
    // What the error is decides which module explains it; those load only on this path.
    if (error instanceof (await import('./config.ts')).ConfigError) {
      io.stderr(`${error.message}\n`);
      return 2;
    }
    if (isAppError(error)) {
      const { errorMessage } = await import('./platform/i18n/index.ts');
      io.stderr(`${errorMessage(error.code, 'en', error.options.params)}\n`);
      return 1;
    }
    if (error instanceof InvalidArgumentError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** The command line, built afresh for each run: commander keeps parsed options on its commands. */
function buildProgram(io: CliIo): Command {
  const say = (line: string) => io.stdout(`${line}\n`);
  // Which database a command uses goes to stderr: stdout carries what the command prints (a token).
  const note = (line: string) => io.stderr(`${line}\n`);

  /**
   * Opens the database for one command (the running service's when there is one) while loading
   * what the command needs, and always closes it.
   */
  async function withDatabase<S, T>(
    load: (config: Config) => Promise<S>,
    work: (database: RunningDatabase, loaded: S, config: Config) => Promise<T>,
  ): Promise<T> {
    const config = (await import('./config.ts')).loadConfig(io.env);
    const [database, loaded] = await Promise.allSettled([
      import('./running-service.ts').then(({ openCommandDatabase }) => openCommandDatabase(config, note)),
      load(config),
    ]);
    if (database.status === 'rejected') throw database.reason;
    try {
      if (loaded.status === 'rejected') throw loaded.reason;
      return await work(database.value, loaded.value, config);
    } finally {
      await database.value.shutdown();
    }
  }

  const program = new Command('tms')
    .description('Transport management service: orders, drivers, routes, contractors and tracking.')
    .version(packageJson.version)
    // Set before the subcommands are added, which take them over: no process.exit, output to io.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nConfiguration comes from the environment (PORT, HOST, DATABASE_URL, TMS_DATA_DIR, ...); see README.md.\n' +
        'Commands use the database of the service running on TMS_DATA_DIR (default .data) when there is one.',
    );

  program
    .command('serve')
    .description('Run the HTTP service (embedded PostgreSQL and demo data unless DATABASE_URL is set)')
    .action(async () => {
      const [{ serve }, { loadConfig }] = await Promise.all([import('./serve.ts'), import('./config.ts')]);
      await serve(loadConfig(io.env));
    });

  program
    .command('worker')
    .description('Run jobs only (docs/jobs.md), no HTTP, until SIGINT or SIGTERM')
    .action(async () => {
      const [{ work }, { loadConfig }] = await Promise.all([import('./worker.ts'), import('./config.ts')]);
      await work(loadConfig(io.env), say);
    });

  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(() =>
      withDatabase(
        async () => {},
        async ({ migrationsApplied: applied }) => {
          const count = applied.length;
          say(
            count === 0
              ? 'Database schema is up to date: no migration to apply.'
              : `Applied ${count} migration${count === 1 ? '' : 's'} (${applied[0]}${count > 1 ? ` to ${applied[count - 1]}` : ''}).`,
          );
        },
      ),
    );

  program
    .command('seed')
    .description('Load data into the configured database')
    .requiredOption('--demo', 'the demo business with one account of every kind')
    .action(() =>
      withDatabase(
        async (config) => ({
          services: await servicesOf(config),
          demo: await import('./demo/seed.ts'),
          described: await import('./demo/describe.ts'),
        }),
        async (database, { services, demo, described }, config) => {
          const credentials = await demo.seedDemo(
            database.db,
            services,
            demo.demoPassword(config.demoPassword),
          );
          if (!credentials) {
            say('The demo business already exists; nothing was changed.');
            return;
          }
          // Said before any service runs: the addresses are those the configuration gives it.
          const where = {
            baseUrl: config.publicBaseUrl,
            brokerUrl: config.mqtt.url ?? `mqtt://127.0.0.1:${config.mqtt.port}`,
            topicPrefix: config.mqtt.topicPrefix,
            ...(path.resolve(config.dataDir) === path.resolve('.data')
              ? {}
              : { dataDir: path.resolve(config.dataDir) }),
          };
          const savedIn = database.embedded
            ? await demo.saveDemoCredentials(config.dataDir, credentials)
            : undefined;
          say(described.describeDemo(credentials, where, { inline: true, ...(savedIn ? { savedIn } : {}) }));
        },
      ),
    );

  const business = program.command('business').description('Manage businesses (the clients of the service)');
  business
    .command('create')
    .description('Create a business')
    .requiredOption('--code <code>', 'short unique code, lowercase letters, digits, - and _')
    .requiredOption('--name <name>', 'display name')
    .option('--time-zone <zone>', 'IANA time zone of the business', 'UTC')
    .action((options: { code: string; name: string; timeZone: string }) =>
      withDatabase(accountsOf, async (database, accounts) => {
        const id = await accounts.createBusiness(database.db, options);
        say(`Created business ${options.code} (id ${id}).`);
      }),
    );

  const contractors = program
    .command('contractor-company')
    .description('Manage contractor (broker) companies');
  contractors
    .command('create')
    .description('Create a contractor company working for one or more businesses')
    .requiredOption('--name <name>', 'company name')
    .requiredOption('--business <code...>', 'codes of the businesses it works for')
    .action((options: { name: string; business: string[] }) =>
      withDatabase(accountsOf, async (database, accounts) => {
        const businessIds = [];
        for (const code of options.business)
          businessIds.push((await accounts.businessByCode(database.db, code)).id);
        const id = await accounts.createContractorCompany(database.db, { name: options.name, businessIds });
        say(`Created contractor company ${options.name} (id ${id}).`);
      }),
    );

  const user = program.command('user').description('Manage user accounts');
  user
    .command('create')
    .description('Create a user account; prints a generated password unless one is given')
    .requiredOption('--email <email>', 'sign-in email, unique across the service')
    .requiredOption('--name <name>', 'display name')
    .addOption(new Option('--kind <kind>', 'account kind').choices(ACCOUNT_KINDS).makeOptionMandatory())
    .option('--business <code>', 'business of the account (all kinds but platform_admin and contractor)')
    .option('--contractor-company <id>', 'contractor company of a contractor account', positiveInteger)
    .option('--password-stdin', 'read the password from standard input instead of generating one')
    .action(
      (options: {
        email: string;
        name: string;
        kind: AccountKind;
        business?: string;
        contractorCompany?: number;
        passwordStdin?: boolean;
      }) =>
        withDatabase(accountsOf, async (database, accounts) => {
          const password = options.passwordStdin ? io.stdin().trim() : randomBytes(12).toString('base64url');
          if (password.length < 8)
            throw new InvalidArgumentError('the password must be at least 8 characters');
          const businessId = options.business
            ? (await accounts.businessByCode(database.db, options.business)).id
            : null;
          const id = await accounts.createUser(database.db, {
            kind: options.kind,
            email: options.email,
            name: options.name,
            password,
            businessId,
            contractorCompanyId: options.contractorCompany ?? null,
          });
          say(`Created ${options.kind} ${options.email} (id ${id}).`);
          if (!options.passwordStdin) say(`Password: ${password}`);
        }),
    );

  const profileOption = new Option('--profile <name>', 'named scope bundle');
  const token = program
    .command('token')
    .description('Manage bearer tokens')
    // The profile names come from the accounts module, loaded only once a token command is chosen
    // (its run or its --help), so the top-level help does not load it.
    .hook('preSubcommand', async () => {
      const { PROFILES } = await import('./modules/accounts/index.ts');
      profileOption.choices(Object.keys(PROFILES));
    });
  token
    .command('create')
    .description('Issue a bearer token for a user, for scripts and agents')
    .requiredOption('--user <email>', 'email of the user the token acts for')
    .addOption(profileOption)
    .option('--scopes <list>', 'explicit comma-separated scopes; overrides the profile', (value) =>
      value
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
    )
    .option('--agent', 'an agent token: defaults to the ops-readonly profile')
    .option('--days <n>', 'lifetime in days', positiveInteger, 90)
    .option('--name <name>', 'a label to recognise the token by')
    .action(
      (options: {
        user: string;
        profile?: string;
        scopes?: string[];
        agent?: boolean;
        days: number;
        name?: string;
      }) =>
        withDatabase(accountsOf, async (database, accounts) => {
          const owner = await accounts.userByEmail(database.db, options.user);
          const issued = await accounts.issueToken(database.db, {
            userId: owner.id,
            kind: options.agent ? 'agent' : 'personal',
            profile: options.profile,
            scopes: options.scopes,
            ttlHours: options.days * 24,
            name: options.name,
          });
          say(issued.token);
          io.stderr(`Expires ${issued.expiresAt.toISOString()}. It is shown only now; store it safely.\n`);
        }),
    );

  addReadCommands(program, { withDatabase, servicesOf, say, positiveInteger });

  const analytics = program.command('analytics').description('Order figures (the analytics rollup)');
  analytics
    .command('rebuild')
    .description(
      "Build a business's analytics rollup again from its orders (after loading orders by other means)",
    )
    .requiredOption('--business <code>', 'code of the business')
    .action((options: { business: string }) =>
      withDatabase(servicesOf, async (database, services) => {
        const business = await services.accounts.businessByCode(database.db, options.business);
        const started = Date.now();
        const written = await services.analytics.rebuild(database.db, business.id, (step) =>
          say(`${((Date.now() - started) / 1000).toFixed(1)}s ${step}`),
        );
        say(
          `Rebuilt the analytics of ${options.business} in ${((Date.now() - started) / 1000).toFixed(1)}s: ` +
            Object.entries(written)
              .map(([table, rows]) => `${rows} ${table} rows`)
              .join(', '),
        );
      }),
    );

  program
    .command('history')
    .description('The tracking history and the operation audit, partitioned by month (docs/history.md)')
    .command('detach')
    .description(
      'Detach the monthly partitions before a month (UTC) from both tables; they stay in the database as ' +
        'tables of their own, for archiving or dropping',
    )
    .requiredOption('--before <YYYY-MM>', 'the first month kept', month)
    .action((options: { before: Date }) =>
      withDatabase(
        async () => {
          const [history, partitions, clock] = await Promise.all([
            import('./history.ts'),
            import('./platform/db/partitions.ts'),
            import('./platform/clock.ts'),
          ]);
          return { ...history, ...partitions, clock: clock.systemClock };
        },
        async (database, { HISTORIES, detachMonthsBefore, monthLabel, clock }) => {
          const before = monthLabel(options.before);
          const detached: string[] = [];
          for (const history of HISTORIES) {
            say(`${history.table}: detaching the months before ${before}`);
            const names = await detachMonthsBefore(
              database.db,
              history,
              options.before,
              clock.now(),
              (name) => say(`  detached ${name}`),
            );
            if (names.length === 0) say('  none attached');
            detached.push(...names);
          }
          say(
            detached.length === 0
              ? `Nothing to detach before ${before}.`
              : `Detached ${detached.length} partitions; they remain as tables (${detached.join(', ')}) ` +
                  'until archived or dropped.',
          );
        },
      ),
    );

  const locker = program.command('locker').description('Smart lockers (docs/lockers.md)');
  locker
    .command('simulate')
    .description('Play one locker device against a running service until Ctrl-C')
    .requiredOption('--device <id>', 'id of the device', positiveInteger)
    .option(
      '--credential <secret>',
      'device credential tmsdev_<id>_...; prefer the TMS_DEVICE_CREDENTIAL environment variable (an option shows in ps and shell history)',
    )
    .option('--compartments <n>', 'number of compartments', positiveInteger, 4)
    .option(
      '--url <url>',
      'MQTT broker; by default the embedded broker of the service running on TMS_DATA_DIR, else MQTT_URL, else mqtt://127.0.0.1:MQTT_PORT (1884)',
    )
    .option('--prefix <prefix>', 'MQTT topic prefix (default MQTT_TOPIC_PREFIX, tms)')
    .action(
      async (options: {
        device: number;
        credential?: string;
        compartments: number;
        url?: string;
        prefix?: string;
      }) => {
        const [{ LockerSimulator, credentialDevice }, { loadConfig }, { runningServiceBroker }] =
          await Promise.all([
            import('./modules/lockers/index.ts'),
            import('./config.ts'),
            import('./running-service.ts'),
          ]);
        const config = loadConfig(io.env);
        const url =
          options.url ??
          (await runningServiceBroker(config.dataDir)) ??
          config.mqtt.url ??
          `mqtt://127.0.0.1:${config.mqtt.port}`;
        const credential = io.env.TMS_DEVICE_CREDENTIAL || options.credential;
        if (!credential)
          throw new InvalidArgumentError(
            'give the device credential in TMS_DEVICE_CREDENTIAL or --credential',
          );
        const named = credentialDevice(credential);
        if (named === null)
          throw new InvalidArgumentError('the credential is not a device credential (tmsdev_...)');
        if (named !== options.device)
          throw new InvalidArgumentError(`the credential belongs to device ${named}, not ${options.device}`);
        const simulator = new LockerSimulator({
          url,
          deviceId: options.device,
          credential,
          compartments: options.compartments,
          topicPrefix: options.prefix ?? config.mqtt.topicPrefix,
        });
        const time = () => new Date().toISOString();
        simulator.on('command', (command) =>
          say(
            `${time()} command ${command.id} ${command.action}` +
              `${command.compartment === undefined ? '' : ` compartment ${command.compartment}`} expires ${command.expires_at}`,
          ),
        );
        simulator.on('ack', (ack) =>
          say(`${time()} ack ${ack.command_id} ${ack.ok ? 'ok' : `failed: ${ack.error ?? ''}`}`),
        );
        await simulator.start();
        say(
          `Device ${options.device} connected to ${redactedUrl(url)}, ${options.compartments} compartments; Ctrl-C stops it.`,
        );
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await simulator.stop();
        say('Stopped.');
      },
    );

  const thirdParty = program
    .command('third-party')
    .description('Third-party delivery providers (docs/third-party.md)');
  thirdParty
    .command('stand-in')
    .description('Run a stand-in delivery provider speaking the generic JSON protocol, until Ctrl-C')
    .option('--port <port>', 'port to listen on', positiveInteger, 4610)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--orders <n>', 'orders on offer at start, due within 15 minutes', positiveInteger, 3)
    .action(async (options: { port: number; host: string; orders: number }) => {
      const { DEMO_STAND_IN_CREDENTIAL, demoStandInOrders, startStandInProvider } = await import(
        './demo/third-party.ts'
      );
      const provider = await startStandInProvider({ ...options, credential: DEMO_STAND_IN_CREDENTIAL });
      provider.orders.push(...demoStandInOrders(new Date(), options.orders));
      say(`Stand-in provider at ${provider.url} with ${provider.orders.length} orders; Ctrl-C stops it.`);
      let seen = 0;
      const report = setInterval(() => {
        for (const call of provider.calls.slice(seen))
          say(`${new Date().toISOString()} ${call.method} ${call.path}`);
        seen = provider.calls.length;
      }, 500);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      clearInterval(report);
      await provider.close();
      say('Stopped.');
    });

  const sms = program.command('sms').description('SMS marketing (docs/sms-marketing.md)');
  sms
    .command('receive')
    .description(
      'Play a text coming in from a phone, for a business on the log provider (which has no phone network): STOP, HELP, START ...',
    )
    .requiredOption('--business <code>', 'code of the business')
    .requiredOption('--from <phone>', "the sender's number (read in the business's default region)")
    .requiredOption('--text <text>', 'what the person texts')
    .action((options: { business: string; from: string; text: string }) =>
      withDatabase(servicesOf, async (database, services) => {
        const business = await services.accounts.businessByCode(database.db, options.business);
        const taken = await database.db.transaction().execute((trx) =>
          services.sms.inbound.fromLogProvider(trx, business.id, {
            from: options.from,
            text: options.text,
          }),
        );
        const keyword = taken.keyword ? taken.keyword.toUpperCase() : 'no keyword';
        const who = taken.subscriber
          ? `subscriber ${taken.subscriber.id} is ${taken.subscriber.status}`
          : 'no subscriber has this number';
        say(`Message ${taken.id} from ${taken.phone} taken (${keyword}): ${who}.`);
        if (taken.keyword)
          say('A reply goes out through the log provider: the running service writes it to its log.');
      }),
    );
  sms
    .command('stand-in')
    .description('Run a stand-in SMS provider speaking the generic format, until Ctrl-C')
    .option('--port <port>', 'port to listen on', positiveInteger, 4620)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <key>', "the business's signing key: unsigned messages are answered 401")
    .option('--log <file>', 'append each message taken to this file, one JSON line each')
    .action(async (options: { port: number; host: string; secret?: string; log?: string }) => {
      const { startSmsStandIn } = await import('./modules/sms/index.ts');
      const standIn = await startSmsStandIn({
        port: options.port,
        host: options.host,
        secret: options.secret,
        logFile: options.log,
        keep: false,
      });
      say(`Stand-in SMS provider at ${standIn.url}; Ctrl-C stops it.`);
      let seen = 0;
      const report = setInterval(() => {
        if (standIn.taken !== seen) say(`${new Date().toISOString()} ${standIn.taken} messages taken`);
        seen = standIn.taken;
      }, 1000);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      clearInterval(report);
      await standIn.close();
      say('Stopped.');
    });

  program
    .command('label')
    .description('Shipping labels (docs/ocr.md)')
    .command('read')
    .description(
      'Read shipping labels (PNG, JPEG or PDF files) as parse_label reads them and print what each says, as ' +
        "JSON lines; the service's own labels (PUBLIC_BASE_URL) give its tracking number and carrier tms",
    )
    .argument('<files...>', 'label images or PDFs')
    .option('--text', 'add the recognised text to each answer')
    .action(async (files: string[], options: { text?: boolean }) => {
      const [{ readFile }, { serviceLabelReader, labelMediaTypeOfFile }, { loadConfig }] = await Promise.all([
        import('node:fs/promises'),
        import('./modules/ocr/index.ts'),
        import('./config.ts'),
      ]);
      // The reader the service makes: a label it printed links to its tracking page, at its address.
      const { publicBaseUrl } = loadConfig(io.env);
      const reader = serviceLabelReader(publicBaseUrl, { queueLimit: files.length });
      io.stderr(
        `Reading as the service at ${publicBaseUrl} (PUBLIC_BASE_URL): its own labels name carrier tms\n`,
      );
      let failed = 0;
      try {
        // Read in turn, each answer as soon as it is ready: progress on stderr, answers on stdout.
        for (const [index, file] of files.entries()) {
          const started = performance.now();
          try {
            const reading = await reader.read(await readFile(file), labelMediaTypeOfFile(file));
            const { text, ...answer } = reading;
            io.stdout(`${JSON.stringify({ file, ...answer, ...(options.text ? { text } : {}) })}\n`);
            const seconds = ((performance.now() - started) / 1000).toFixed(1);
            io.stderr(`[${index + 1}/${files.length}] ${file}: read in ${seconds} s\n`);
          } catch (error) {
            failed += 1;
            const reason = isAppError(error)
              ? error.code
              : error instanceof Error
                ? error.message
                : String(error);
            io.stderr(`[${index + 1}/${files.length}] ${file}: not read (${reason})\n`);
          }
        }
      } finally {
        await reader.close();
      }
      if (failed > 0) throw new Error(`${failed} of ${files.length} labels not read`);
    });

  return program;
}
