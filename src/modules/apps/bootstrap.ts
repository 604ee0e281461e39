import semver from 'semver';
import { type AssignmentConfig, type Platform, QUICK_ACTION_CAPABILITY } from './config.ts';
import type { AppsTables } from './tables.ts';

type AppRow = Pick<AppsTables['apps'], 'code' | 'name' | 'type' | 'schema_version'>;

/**
 * What the version policy says of the calling app: `update_required` below the platform's
 * minimum, `update_available` below its latest, `supported` otherwise; `unknown` when the app
 * did not say its platform and version or the platform has no policy.
 */
export type VersionStatus = 'supported' | 'update_available' | 'update_required' | 'unknown';

function versionStatus(
  policy: AssignmentConfig['version_policy'],
  platform: Platform | undefined,
  appVersion: string | undefined,
): VersionStatus {
  const rule = platform ? policy[platform] : undefined;
  if (!rule || !appVersion) return 'unknown';
  if (semver.lt(appVersion, rule.minimum_version)) return 'update_required';
  if (semver.lt(appVersion, rule.latest_version)) return 'update_available';
  return 'supported';
}

/**
 * The capabilities an app may rely on: the configured ones, with auth.<idp> on exactly while
 * that sign-in method is on and its provider has a backend audience, and auth.email and
 * auth.registration following the methods and registration settings.
 */
function effectiveCapabilities(config: AssignmentConfig): Record<string, boolean> {
  const capabilities = { ...config.capabilities };
  for (const [method, on] of Object.entries(config.authentication.methods)) {
    capabilities[`auth.${method}`] =
      on && (method === 'email' || config.authentication.providers[method] !== undefined);
  }
  capabilities['auth.registration'] = config.registration.enabled;
  return Object.fromEntries(Object.entries(capabilities).sort(([a], [b]) => a.localeCompare(b)));
}

/** The bootstrap data of the interface, for one app and client, as the calling app sees it. */
export function bootstrapData(input: {
  app: AppRow;
  client: { code: string; name: string };
  configurationVersion: number;
  config: AssignmentConfig;
  platform: Platform | undefined;
  appVersion: string | undefined;
}) {
  const { config } = input;
  const capabilities = effectiveCapabilities(config);
  const idps = Object.keys(config.authentication.methods).filter((method) => method !== 'email');
  const hidden = new Set(config.quick_actions.hidden);
  return {
    app: {
      code: input.app.code,
      name: input.app.name,
      type: input.app.type,
      schema_version: input.app.schema_version,
    },
    client: { code: input.client.code, display_name: config.display_name ?? input.client.name },
    configuration_version: input.configurationVersion,
    capabilities,
    authentication: {
      methods: {
        ...Object.fromEntries(idps.map((idp) => [idp, capabilities[`auth.${idp}`] === true])),
        email: capabilities['auth.email'] === true,
        registration: config.registration.enabled,
      },
      // The backend audience of each provider the app may sign in with.
      ...Object.fromEntries(
        idps
          .filter((idp) => capabilities[`auth.${idp}`])
          .map((idp) => [idp, { server_client_id: config.authentication.providers[idp]!.server_client_id }]),
      ),
      registration: config.registration,
    },
    services: config.services,
    branding: config.branding,
    version_policy: {
      platforms: config.version_policy,
      platform: input.platform ?? null,
      app_version: input.appVersion ?? null,
      status: versionStatus(config.version_policy, input.platform, input.appVersion),
    },
    settings: {
      home: {
        quick_actions: config.quick_actions.order.filter(
          (action) => !hidden.has(action) && capabilities[QUICK_ACTION_CAPABILITY[action]] === true,
        ),
      },
    },
  };
}
