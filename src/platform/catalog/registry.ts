import { z } from 'zod';
import { actingBusinessParam, alliedBusinessParam } from '../schemas.ts';
import type { Access, Operation } from './operation.ts';

/** All operations of the service, each declared once by the module that owns its use case. */
export class Catalog {
  private readonly byName = new Map<string, Operation>();

  register(operations: readonly Operation[]): this {
    for (const operation of operations) {
      if (!/^[a-z][a-z0-9_]*$/.test(operation.name)) throw new Error(`Bad operation name ${operation.name}`);
      if (this.byName.has(operation.name)) throw new Error(`Operation ${operation.name} is declared twice`);
      if (operation.kind === 'mutation' && !guardsItsWrites(operation.access)) {
        throw new Error(`Mutation ${operation.name} names no scope: any token could call it`);
      }
      // Module switches are per business: only a signed-in account has one.
      if (operation.feature !== undefined && !('kinds' in operation.access)) {
        throw new Error(`Operation ${operation.name} belongs to a feature but has no account access`);
      }
      checkBusinessFields(operation);
      this.byName.set(operation.name, operation);
    }
    return this;
  }

  get(name: string): Operation | undefined {
    return this.byName.get(name);
  }

  list(): Operation[] {
    return [...this.byName.values()];
  }
}

/**
 * A mutation is public, reserved to tracking providers' keys, or names the scopes a token needs:
 * forgetting them would let every token, the read-only agent ones included, call it.
 */
function guardsItsWrites(access: Access): boolean {
  if (access.public || ('provider' in access && access.provider)) return true;
  return (
    'kinds' in access &&
    ((access.scopes?.length ?? 0) > 0 || access.ownSession === true || access.delegates === true)
  );
}

/**
 * An input that names the business a contractor acts in, or a customer, is checked by the
 * executor only when the access says so (Access.business, Access.customer): an
 * `actingBusinessParam` field without `business: 'acting'` would be a choice nobody verifies.
 */
function checkBusinessFields(operation: Operation): void {
  const shape: Record<string, unknown> = operation.input instanceof z.ZodObject ? operation.input.shape : {};
  const access = 'kinds' in operation.access ? operation.access : undefined;
  const acting = access?.business === 'acting';
  const named = shape.business_id === actingBusinessParam || shape.business_id === alliedBusinessParam;
  if (named !== acting) {
    throw new Error(`Operation ${operation.name}: a business_id input goes with access.business 'acting'`);
  }
  // Another business's data is shared for reading only: no write may ever act in an ally's business.
  if (
    access?.allied &&
    (operation.kind !== 'query' || !acting || shape.business_id !== alliedBusinessParam)
  ) {
    throw new Error(`Operation ${operation.name}: access.allied is for queries with an alliedBusinessParam`);
  }
  if (access?.customer !== undefined && !(access.customer in shape)) {
    throw new Error(
      `Operation ${operation.name}: access.customer names ${access.customer}, not an input field`,
    );
  }
}
