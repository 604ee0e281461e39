import { PROFILES } from '../../modules/accounts/index.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { ERROR_CODES, ERROR_STATUS } from '../../platform/errors.ts';
import { errorMessage } from '../../platform/i18n/index.ts';
import { PER_PAGE } from '../../platform/pagination.ts';
import { type ToolServer, toolsOf } from '../mcp/tools.ts';

/**
 * The agent guidance file (`/api/ai-skill`): what an agent needs to work with the service, in
 * Markdown. Its tools, profiles and error codes are read from the catalog, so the file changes
 * (and its version and hash with it) whenever they do.
 */
export function skillMarkdown(catalog: Catalog, baseUrl: string): string {
  const toolLines = (server: ToolServer) =>
    [...toolsOf(catalog, server).values()]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((tool) => {
        const access = tool.operation.access;
        const scopes = 'kinds' in access && access.scopes?.length ? ` (${access.scopes.join(', ')})` : '';
        const flags = [
          access.public ? 'public' : 'token',
          tool.operation.risk,
          tool.operation.confirm ? 'confirm' : '',
        ]
          .filter(Boolean)
          .join(', ');
        return `- \`${tool.name}\` [${flags}]${scopes}: ${tool.operation.tool!.guide}`;
      });
  const profiles = Object.entries(PROFILES).map(
    ([name, scopes]) =>
      `- \`${name}\`: ${scopes === 'all' ? 'every scope (not for unattended agents)' : scopes.join(', ')}`,
  );
  const errors = ERROR_CODES.map(
    (code) => `- \`${code}\` (${ERROR_STATUS[code]}): ${errorMessage(code, 'en', {})}`,
  );
  return [
    '# TMS agent guide',
    '',
    `Service: ${baseUrl}. This file: ${baseUrl}/api/ai-skill; its version and MD5: ${baseUrl}/api/ai-skill/version`,
    '(or the `check_skill_update` tool). Fetch it again when the hash changes.',
    '',
    '## Connect',
    '',
    `- User server (operations, support, business work): \`POST ${baseUrl}/mcp\``,
    `- Developer server (integration work): \`POST ${baseUrl}/mcp/developer\``,
    '- Send the token in the `Authorization: Bearer <token>` header of the connection, never in a prompt or a',
    '  tool argument (the developer server reads a deprecated `api_token` argument until 2026-12-31 only).',
    '- Narrow the connection with `X-MCP-Profile` (below) or `X-MCP-Scopes` (comma-separated). Headers only',
    '  narrow what the token grants.',
    '- Messages follow `Accept-Language` (en, zh-Hans, zh-Hant, fr, de, es).',
    '',
    '## Which profile for which job',
    '',
    '- Answer questions about orders, routes and parcels: `ops-readonly` (the default of agent tokens).',
    '- Help customers: `support`.',
    '- Create and change orders, plan routes, buy labels: `ops-write`.',
    '- Warehouse questions: `wms-readonly`; datasets: `datasets-readonly`; alliances: `alliance-readonly`.',
    '- Packing and loading: `packing-readonly`; lockers: `lockers-readonly`; reservations: `reservations-readonly`.',
    '  The operations profiles do not include them: for both, name the scopes (`X-MCP-Scopes`).',
    '',
    ...profiles,
    '',
    '## Rules for writes',
    '',
    '- High-risk tools (marked confirm below) run only with `confirm: true`. Without it they answer a preview',
    '  (`CONFIRMATION_REQUIRED` with `preview`): show it to the person and ask before calling again.',
    '- Send only the arguments a tool lists: a write refuses any other (-32602 naming it) and does nothing.',
    '- `X-MCP-Dry-Run: 1` runs every write and rolls it back: use it to check a plan.',
    '- When you may not write, or a person must decide, call `propose_write` (tool, arguments, reason), or set',
    '  `X-MCP-Require-Approval: 1` so high-risk writes wait for approval. People decide at',
    `  ${baseUrl}/mcp-approvals. A proposal expires after 24 hours.`,
    '',
    '## Common workflows',
    '',
    '- Create and plan a day: `create_order` (or `bulk_create_orders`, up to 100), then',
    '  `get_build_route_options` for the date, then `build_route` with `confirm: true`; check `get_routes`.',
    '- Track a package: `track_package` with the tracking number (no token needed).',
    '- Find an order: `find_order` by reference or tracking number; its history: `get_operation_events`.',
    '- Assign orders to a contractor: over REST, `POST /api/v1/broker-order-assignments` (see the integration',
    '  guide and `get_api_endpoints`).',
    '- Configure webhooks: `get_webhook_settings`, `test_webhook_delivery` on the URL, then',
    '  `update_webhook_settings`; check signatures with `verify_webhook_signature`.',
    '',
    '## Tools of the user server',
    '',
    ...toolLines('user'),
    '',
    '## Tools of the developer server',
    '',
    ...toolLines('developer'),
    '',
    '## Errors',
    '',
    'A refused tool call is a result with `isError: true` whose content is `{result: false, error_code, message,',
    'details?}`. Invalid arguments and unknown tools are JSON-RPC errors -32602.',
    '',
    ...errors,
    '',
    '## Limits',
    '',
    `- Lists: \`page\` from 1, \`per_page\` up to ${PER_PAGE.max} (default ${PER_PAGE.default}).`,
    '- `bulk_create_orders`: up to 100 orders a call.',
    '- Calls count against a share per token, business and address; past it: `RATE_LIMITED` with `Retry-After`.',
    '',
  ].join('\n');
}
