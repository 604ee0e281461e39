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
  return 'kinds' in access && ((access.scopes?.length ?? 0) > 0 || access.ownSession === true);
}
