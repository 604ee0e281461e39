/**
 * The closed catalog of error codes. Every 4xx/5xx the service answers carries one of these in
 * `{ result: false, error_code, message, details? }`; each is translated in src/platform/i18n and
 * documented in docs/errors.md (a test holds the three in step).
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  INVALID_URL: 400,
  QUERY_TOO_COMPLEX: 400,
  UNKNOWN_FORMAT: 400,
  ORDER_NOT_ASSIGNED_TO_YOU: 400,
  ORDER_ON_ROUTE: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  API_TOKEN_ARGUMENT_REMOVED: 401,
  PAYMENT_DECLINED: 402,
  PROVIDER_CREDENTIAL_REQUIRED: 401,
  ID_TOKEN_INVALID: 401,
  IDENTITY_NOT_REGISTERED: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  OWN_PROPOSAL: 403,
  SCOPE_REQUIRED: 403,
  ACCOUNT_DISABLED: 403,
  ACCOUNT_PENDING_APPROVAL: 403,
  PRICE_HIDDEN_SETTLE_OFFLINE: 403,
  MODULE_DISABLED: 403,
  APP_UNAVAILABLE: 403,
  APP_SIGN_IN_REFUSED: 403,
  ENDPOINT_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  REGISTRATION_NOT_FOUND: 404,
  PROPOSAL_NOT_FOUND: 404,
  ADDRESS_NOT_FOUND: 404,
  POI_NOT_FOUND: 404,
  ALLIANCE_NOT_FOUND: 404,
  ALLIANCE_MEMBER_NOT_FOUND: 404,
  ALLIANCE_OWNER_ONLY: 403,
  CLIENT_NOT_ACCESSIBLE: 403,
  CUSTOMER_CHAT_OFF: 403,
  ALLIANCE_ALREADY_MEMBER: 409,
  ALLIANCE_ALREADY_INVITED: 409,
  ALLIANCE_NOT_INVITED: 409,
  ALLIANCE_INVITATION_PENDING: 409,
  ALLIANCE_OWNER_CANNOT_LEAVE: 409,
  DATASET_GROUP_NOT_FOUND: 404,
  DATASET_NOT_FOUND: 404,
  DATASET_RECORD_NOT_FOUND: 404,
  RETURN_REASON_NOT_FOUND: 422,
  SAVED_ADDRESS_NOT_FOUND: 422,
  ORDER_LEG_UNUSED: 422,
  ADDRESS_NOT_PLACEABLE: 422,
  BUSINESS_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  DRIVER_NOT_FOUND: 404,
  DEPOT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  STOP_NOT_FOUND: 404,
  PACKAGE_NOT_ON_ROUTE: 404,
  VEHICLE_NOT_FOUND: 404,
  STOP_NOT_ON_ROUTE: 404,
  DATE_IN_PAST: 422,
  CONTRACTOR_RULE_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  TRACKING_PROVIDER_NOT_FOUND: 404,
  TRACKING_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  BUSINESS_CODE_TAKEN: 409,
  ORDER_REF_TAKEN: 409,
  WEBHOOK_SECRET_MISSING: 409,
  ORDER_ALREADY_PAID: 409,
  REGISTRATION_ALREADY_DECIDED: 409,
  PROPOSAL_DECIDED: 409,
  PROPOSAL_EXPIRED: 409,
  FEATURE_DISABLED: 409,
  SMS_MARKETING_DISABLED: 409,
  ORDER_CHAT_CLOSED: 409,
  ALREADY_EXISTS: 409,
  REFERENCE_CONFLICT: 409,
  CONCURRENT_UPDATE: 409,
  DATASET_GROUP_NOT_EMPTY: 409,
  DATASET_SCHEMA_CONFLICT: 409,
  DRY_RUN_UNAVAILABLE: 409,
  ILLEGAL_STATUS_TRANSITION: 409,
  ORDER_LOCATION_LOCKED: 409,
  PLAN_VIOLATION: 409,
  STOP_NOT_MOVABLE: 409,
  ROUTE_PAST_MIDNIGHT: 409,
  ROUTE_FINISHED: 409,
  ORDER_NOT_PLANNABLE: 409,
  DRIVER_WITHOUT_DEPOT: 409,
  ORDER_NOT_ASSIGNED: 409,
  ORDER_ALREADY_ASSIGNED: 409,
  ORDER_HELD_BY_CARRIER: 409,
  ORDER_NOT_ASSIGNABLE: 409,
  ORDER_NOT_SELF_DELIVERY: 409,
  CONFIRMATION_REQUIRED: 428,
  PAYLOAD_TOO_LARGE: 413,
  PARAMETER_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_DOCUMENT_TYPE: 415,
  UNSUPPORTED_PROOF_TYPE: 415,
  PROOF_LINK_INVALID: 404,
  WAREHOUSE_NOT_FOUND: 404,
  WAREHOUSE_LOCATION_NOT_FOUND: 404,
  TRANSFER_NOT_FOUND: 404,
  WAREHOUSE_ROLE_REQUIRED: 403,
  PACKAGE_IN_OTHER_WAREHOUSE: 409,
  PACKAGE_NOT_IN_WAREHOUSE: 409,
  LOCATION_FULL: 409,
  CAPACITY_BELOW_OCCUPIED: 409,
  LOCATION_IN_USE: 409,
  STOCK_NOT_ENOUGH: 409,
  SCAN_ID_REUSED: 409,
  NO_STAGING_LANE: 409,
  ROUTE_ALREADY_DISPATCHED: 409,
  ROUTE_NOT_STARTED: 409,
  STOP_ALREADY_COMPLETED: 409,
  CLIENT_ID_REUSED: 409,
  TRANSFER_REFUSED: 409,
  TRANSFER_NOT_REVERSIBLE: 409,
  VALIDATION_FAILED: 422,
  OUTCOME_NOT_FOR_LEG: 422,
  DEVICE_TIME_OUT_OF_RANGE: 422,
  SEQUENCE_INVALID: 422,
  TOOL_NOT_PROPOSABLE: 422,
  CSV_UNREADABLE: 422,
  CSV_TOO_LONG: 422,
  DATASET_FULL: 422,
  RETURN_REASON_REQUIRED: 422,
  RETURN_PHOTO_REQUIRED: 422,
  PROOF_NOT_AN_IMAGE: 422,
  PROOF_NOT_FOUND: 422,
  UNSUPPORTED_CHARACTERS: 422,
  INVALID_VALUE: 422,
  CUSTOMER_NOT_FOUND: 422,
  AMOUNT_TOO_PRECISE: 422,
  CONTRACTOR_NOT_ENGAGED: 422,
  BUSINESS_REQUIRED: 422,
  WEBHOOK_URL_REFUSED: 422,
  CARD_TOKEN_REQUIRED: 422,
  INSUFFICIENT_CREDIT: 422,
  NOTHING_TO_PAY: 422,
  OTEP_TOO_MANY_EVENTS: 422,
  OTEP_INVALID: 422,
  CONTRACTOR_NOT_FOUND: 422,
  IDENTITY_PROVIDER_NOT_FOUND: 422,
  CARRIER_NOT_FOUND: 404,
  CARRIER_SERVICE_NOT_FOUND: 404,
  LABEL_NOT_FOUND: 404,
  RATE_CHANGED: 409,
  RATE_UNAVAILABLE: 422,
  NO_CARRIER_AVAILABLE: 422,
  CARRIER_CURRENCY_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  IDENTITY_PROVIDER_UNREACHABLE: 502,
  GEOCODER_UNAVAILABLE: 502,
  SERVICE_UNAVAILABLE: 503,
  MODULE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Values substituted into the localised message, e.g. {seconds}. */
export type MessageParams = Record<string, string | number>;

/** A failure the caller can act on. Thrown anywhere; turned into the error body by the doors. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: {
      params?: MessageParams;
      details?: Record<string, unknown>;
      /** Response headers that belong to the error, such as Retry-After. */
      headers?: Record<string, string>;
      /** Fields the interface puts beside `error_code` in this refusal's body (`feature_enabled`). */
      body?: Record<string, unknown>;
      /**
       * The refusal is itself an outcome to keep: what the operation wrote before refusing is
       * committed (a registration waiting for approval). Without it a refusal rolls back.
       */
      commit?: boolean;
    } = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The refusal of an operation of an opt-in family (order chat, the operations AI agent) while the
 * family is off for the business, revoked by the platform admin, or not set up yet: 409 with
 * `feature_enabled: false` beside the code, as the interface words it.
 */
export function featureDisabled(feature: string, reason: 'off' | 'revoked' | 'not_migrated'): AppError {
  return new AppError('FEATURE_DISABLED', {
    params: { feature },
    details: { feature, reason },
    body: { feature_enabled: false },
  });
}
