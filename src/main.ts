import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createServices, VERSION } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openServiceDatabase, type RunningDatabase } from './database.ts';
import { demoPassword, describeDemoCredentials, saveDemoCredentials, seedDemo } from './demo/seed.ts';
import { PROFILES } from './modules/accounts/index.ts';
import { ACCOUNT_KINDS, type AccountKind } from './platform/catalog/operation.ts';
import { systemClock } from './platform/clock.ts';
import { isAppError } from './platform/errors.ts';
import { errorMessage } from './platform/i18n/index.ts';
import { serve } from './serve.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Opens the configured database for one command, and always closes it. */
async function withDatabase<T>(work: (database: RunningDatabase) => Promise<T>): Promise<T> {
  const database = await openServiceDatabase(loadConfig(), say);
  try {
    return await work(database);
  } finally {
    await database.shutdown();
  }
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('must be a whole number above 0');
  return Number(value);
}

const program = new Command('tms')
  .description('Transport management service: orders, drivers, routes, contractors and tracking.')
  .version(VERSION)
  .showHelpAfterError()
  .addHelpText(
    'after',
    '\nConfiguration comes from the environment (PORT, HOST, DATABASE_URL, TMS_DATA_DIR, ...); see README.md.',
  );

program
  .command('serve')
  .description('Run the HTTP service (embedded PostgreSQL and demo data unless DATABASE_URL is set)')
  .action(async () => serve(loadConfig()));

program
  .command('migrate')
  .description('Apply pending database migrations and exit')
  .action(() =>
    withDatabase(async () => {
      say('Database schema is up to date.');
    }),
  );

program
  .command('seed')
  .description('Load data into the configured database')
  .requiredOption('--demo', 'the demo business with one account of every kind')
  .action(() =>
    withDatabase(async (database) => {
      const config = loadConfig();
      const services = createServices(config, systemClock);
      const credentials = await seedDemo(database.db, services, demoPassword(config.demoPassword));
      if (!credentials) {
        say('The demo business already exists; nothing was changed.');
        return;
      }
      say(describeDemoCredentials(credentials, config.publicBaseUrl));
      if (database.embedded) say(`(saved in ${await saveDemoCredentials(config.dataDir, credentials)})`);
    }),
  );

const business = program.command('business').description('Manage businesses (the clients of the service)');
business
  .command('create')
  .description('Create a business')
  .requiredOption('--code <code>', 'short unique code, lowercase letters, digits, - and _')
  .requiredOption('--name <name>', 'display name')
  .option('--time-zone <zone>', 'IANA time zone of the business', 'UTC')
  .action((options: { code: string; name: string; timeZone: string }) =>
    withDatabase(async (database) => {
      const { accounts } = createServices(loadConfig(), systemClock);
      const id = await accounts.createBusiness(database.db, options);
      say(`Created business ${options.code} (id ${id}).`);
    }),
  );

const contractors = program.command('contractor-company').description('Manage contractor (broker) companies');
contractors
  .command('create')
  .description('Create a contractor company working for one or more businesses')
  .requiredOption('--name <name>', 'company name')
  .requiredOption('--business <code...>', 'codes of the businesses it works for')
  .action((options: { name: string; business: string[] }) =>
    withDatabase(async (database) => {
      const { accounts } = createServices(loadConfig(), systemClock);
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
      withDatabase(async (database) => {
        const { accounts } = createServices(loadConfig(), systemClock);
        const password = options.passwordStdin ? readFileSync(0, 'utf8').trim() : demoPassword(undefined);
        if (password.length < 8) throw new InvalidArgumentError('the password must be at least 8 characters');
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

const token = program.command('token').description('Manage bearer tokens');
token
  .command('create')
  .description('Issue a bearer token for a user, for scripts and agents')
  .requiredOption('--user <email>', 'email of the user the token acts for')
  .addOption(new Option('--profile <name>', 'named scope bundle').choices(Object.keys(PROFILES)))
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
      withDatabase(async (database) => {
        const { accounts } = createServices(loadConfig(), systemClock);
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
        process.stderr.write(
          `Expires ${issued.expiresAt.toISOString()}. It is shown only now; store it safely.\n`,
        );
      }),
  );

const analytics = program.command('analytics').description('Order figures (the analytics rollup)');
analytics
  .command('rebuild')
  .description(
    "Build a business's analytics rollup again from its orders (after loading orders by other means)",
  )
  .requiredOption('--business <code>', 'code of the business')
  .action((options: { business: string }) =>
    withDatabase(async (database) => {
      const services = createServices(loadConfig(), systemClock);
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

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  if (isAppError(error)) {
    process.stderr.write(`${errorMessage(error.code, 'en', error.options.params)}\n`);
    process.exit(1);
  }
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
