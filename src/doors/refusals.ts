import { OPT_IN_FAMILIES } from '../modules/accounts/index.ts';
import type { Operation } from '../platform/catalog/operation.ts';
import { ERROR_STATUS, type ErrorCode } from '../platform/errors.ts';

/**
 * The refusals an operation can answer, by HTTP status, each status with exactly its codes: what
 * the OpenAPI document publishes for the operation (an enum of `error_code` per status), and what
 * the test server holds every REST answer to (test/support/answer-check.ts). The operation's own
 * `errors`, and those any operation may give by what it is.
 */
export function declaredRefusals(operation: Operation): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...commonRefusals(operation), ...(operation.errors ?? [])])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** Refusals any operation may give, by what it is. */
function commonRefusals(operation: Operation): ErrorCode[] {
  // Text no field may hold is refused by the HTTP shell in any body or query string; every
  // caller has a share of requests a minute (platform/limits.ts).
  const codes: ErrorCode[] = [
    'VALIDATION_FAILED',
    'UNSUPPORTED_CHARACTERS',
    'RATE_LIMITED',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  ];
  const binding = operation.rest;
  // The HTTP shell's own refusals: of the body as bytes, and of path values before any route runs.
  if (binding && binding.method !== 'GET') {
    codes.push('INVALID_JSON', 'PAYLOAD_TOO_LARGE', binding.body?.unsupported ?? 'UNSUPPORTED_MEDIA_TYPE');
  }
  if (binding?.path.includes(':')) codes.push('PARAMETER_TOO_LONG', 'INVALID_URL');
  // The executor's switches (AccountsService.requireFeature): an opt-in family that is off is 409;
  // a module that is off is 403, and a read of a module the system does not offer 503.
  if (operation.feature && (OPT_IN_FAMILIES as readonly string[]).includes(operation.feature)) {
    codes.push(operation.feature === 'sms_marketing' ? 'SMS_MARKETING_DISABLED' : 'FEATURE_DISABLED');
  } else if (operation.feature) {
    codes.push('MODULE_DISABLED');
    if (operation.kind === 'query') codes.push('MODULE_UNAVAILABLE');
  }
  const access = operation.access;
  if ('provider' in access && access.provider) codes.push('PROVIDER_CREDENTIAL_REQUIRED');
  else if (!access.public) codes.push('UNAUTHENTICATED', 'FORBIDDEN');
  if ('kinds' in access && access.scopes?.length) codes.push('INSUFFICIENT_SCOPE');
  // A customer the call names that is not one of the business's (Access.customer).
  if ('customer' in access && access.customer) codes.push('CUSTOMER_NOT_FOUND');
  if (operation.confirm) codes.push('CONFIRMATION_REQUIRED');
  // What the database refuses of a write reaches the caller in these codes (platform/db/errors.ts).
  if (operation.kind === 'mutation')
    codes.push('ALREADY_EXISTS', 'REFERENCE_CONFLICT', 'CONCURRENT_UPDATE', 'INVALID_VALUE');
  return codes;
}
