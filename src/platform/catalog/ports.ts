import type { Queryable } from '../db/database.ts';
import type { Caller, ProviderCaller } from './operation.ts';

// What the executor asks of the modules that own accounts, businesses and providers.

/** Resolves a bearer token to its caller; null when the token is unknown, expired or revoked. */
export type Authenticator = (db: Queryable, bearer: string, now: Date) => Promise<Caller | null>;

/** Resolves a tracking provider key to its provider; null when unknown or revoked. */
export type ProviderAuthenticator = (db: Queryable, key: string) => Promise<ProviderCaller | null>;

/**
 * Refuses a call to an operation of an optional module that is off for the caller (the accounts
 * module owns the switches). It runs before the input is validated, so it gets the raw input.
 */
export type FeatureGate = (
  db: Queryable,
  call: {
    feature: string;
    caller: Caller;
    use: 'read' | 'write';
    input: unknown;
    /** The operation sets the feature's data up (Operation.featureSetup). */
    setup?: boolean;
  },
) => Promise<void>;

/**
 * Which business a call acts in and who its customers are: the accounts module answers, the
 * executor asks before the handler runs (see Access.business and Access.customer).
 */
export interface BusinessAccess {
  actingBusiness(db: Queryable, caller: Caller, requested?: number): Promise<number>;
  requireCustomerOf(db: Queryable, userId: number, businessId: number): Promise<void>;
}

/**
 * Whether one business lets another read its data under a grant (the alliances module answers),
 * asked on every call of an operation declaring `access.allied` that names another business.
 */
export interface AlliedAccess {
  grants(db: Queryable, ownerBusinessId: number, readerBusinessId: number, grant: string): Promise<boolean>;
}
