import type { ErrorCode } from '../../errors.ts';

export type ErrorMessages = Record<ErrorCode, string>;

export const en: ErrorMessages = {
  BAD_REQUEST: 'The request is not well formed.',
  INVALID_JSON: 'The request body is not valid JSON.',
  UNAUTHENTICATED: 'Sign in first: send a valid, unexpired access token as "Authorization: Bearer <token>".',
  INVALID_CREDENTIALS: 'The email or password is incorrect.',
  FORBIDDEN: 'Your account is not allowed to do this.',
  INSUFFICIENT_SCOPE: 'Your access token lacks the scope this needs: {scopes}.',
  ACCOUNT_DISABLED: 'This account is disabled. Ask your administrator to enable it.',
  ENDPOINT_NOT_FOUND: 'There is no endpoint {method} {path}.',
  USER_NOT_FOUND: 'No user with that email or id exists.',
  BUSINESS_NOT_FOUND: 'No business with that code or id exists.',
  EMAIL_TAKEN: 'A user with this email already exists.',
  BUSINESS_CODE_TAKEN: 'A business with this code already exists.',
  PAYLOAD_TOO_LARGE: 'The request body is larger than the limit of {limit} bytes.',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be sent as application/json.',
  VALIDATION_FAILED: 'Some fields are invalid: {fields}.',
  RATE_LIMITED: 'Too many attempts. Try again in {seconds} seconds.',
  INTERNAL_ERROR: 'Something went wrong on our side. Quote request id {request_id} if you contact support.',
  ORDER_NOT_FOUND: 'No order {order} exists in this business.',
  ORDER_REF_TAKEN: 'The order reference {order_ref} is already used in this business.',
  ILLEGAL_STATUS_TRANSITION: 'An order in status {from} cannot move to {to}.',
  CUSTOMER_NOT_FOUND: 'Customer {customer_id} is not a customer account of this business.',
  AMOUNT_TOO_PRECISE: 'The amount {amount} has more decimals than {currency} allows.',
  DRIVER_NOT_FOUND: 'No driver {driver} exists in this business.',
  DEPOT_NOT_FOUND: 'No depot {depot} exists in this business.',
  ROUTE_NOT_FOUND: 'No route {route} exists in this business.',
  SERVICE_UNAVAILABLE: 'The service is temporarily unavailable. Try again shortly.',
};
