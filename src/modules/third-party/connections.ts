import { createHash, randomBytes } from 'node:crypto';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { CredentialVault } from '../../platform/credential-vault.ts';
import { AppError } from '../../platform/errors.ts';
import { checkDestination, OutboundRefused, type OutboundRules } from '../../platform/http/outbound.ts';
import { DEMO_MARKETPLACE_ADAPTER, demoMarketplace } from './demo-marketplace.ts';
import { JsonConnector } from './json-connector.ts';
import type { DeliveryProvider, ProviderAdapter } from './port.ts';
import * as repo from './repository.ts';
import type { AcceptRules, FieldMapping } from './schemas.ts';
import { connectionView } from './views.ts';

export interface ConnectionInput {
  name: string;
  adapter: string;
  base_url: string;
  credential?: string;
  mapping: FieldMapping;
  family: string;
  rules?: AcceptRules;
  poll_seconds: number;
  active: boolean;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The connections of a business to its providers, and the adapter each speaks through. */
export class ThirdPartyConnections {
  private readonly adapters = new Map<string, ProviderAdapter>();
  /** Adapters only the operator's own seed may choose (the demo's in-process marketplace). */
  private readonly seedOnly = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly vault: CredentialVault,
    private readonly rules: OutboundRules,
    private readonly publicBaseUrl: string,
  ) {
    this.adapters.set('generic_json', (settings) => new JsonConnector(settings, rules));
    this.adapters.set(DEMO_MARKETPLACE_ADAPTER, (settings) => demoMarketplace(settings, rules));
    this.seedOnly.add(DEMO_MARKETPLACE_ADAPTER);
  }

  /** A provider's own adapter, under the name connections choose it by (docs/third-party.md). */
  registerAdapter(name: string, adapter: ProviderAdapter): void {
    this.adapters.set(name, adapter);
  }

  /**
   * `seeded`: the operator's own seed (the demo), whose URL is not checked when saved, only at each
   * call, and which alone may choose a seed-only adapter.
   */
  async create(ctx: OperationContext, input: ConnectionInput, options: { seeded?: boolean } = {}) {
    const businessId = businessOf(ctx);
    this.requireAdapter(input.adapter, options.seeded ?? false);
    if (!options.seeded) await this.requireCallable(input.base_url);
    const pushToken = `tpp_${randomBytes(24).toString('base64url')}`;
    const now = this.clock.now();
    const row = await repo.insertConnection(ctx.db, {
      business_id: businessId,
      name: input.name,
      adapter: input.adapter,
      base_url: input.base_url,
      credential_sealed: null,
      credential_hint: null,
      push_token_hash: hashToken(pushToken),
      mapping: input.mapping,
      family: input.family,
      rules: input.rules ?? null,
      poll_seconds: input.poll_seconds,
      active: input.active,
      cursor: null,
      next_pull_at: now,
      last_error: null,
      last_error_at: null,
      last_success_at: null,
      created_at: now,
    });
    // Sealed under the connection's id, which exists only once the row does.
    const saved = input.credential
      ? await repo.updateConnection(ctx.db, businessId, row.id, await this.sealed(input.credential, row.id))
      : row;
    // The push token is shown once, here; only its hash is kept.
    return {
      result: true as const,
      connection: connectionView(saved!, this.publicBaseUrl),
      push_token: pushToken,
    };
  }

  async update(
    ctx: OperationContext,
    id: number,
    input: Partial<Omit<ConnectionInput, 'rules'>> & { rules?: AcceptRules | null; cursor?: string | null },
  ) {
    const businessId = businessOf(ctx);
    await this.row(ctx, id);
    if (input.adapter !== undefined) this.requireAdapter(input.adapter, false);
    if (input.base_url !== undefined) await this.requireCallable(input.base_url);
    const { credential, ...rest } = input;
    const changes = {
      ...rest,
      ...(credential !== undefined ? await this.sealed(credential, id) : {}),
      // A connection changed is pulled again at once, its backoff forgotten.
      next_pull_at: this.clock.now(),
      failures: 0,
    };
    const row = await repo.updateConnection(ctx.db, businessId, id, changes);
    return { result: true as const, connection: connectionView(row!, this.publicBaseUrl) };
  }

  async list(ctx: OperationContext) {
    const rows = await repo.connectionsOf(ctx.db, businessOf(ctx));
    return { result: true as const, connections: rows.map((row) => connectionView(row, this.publicBaseUrl)) };
  }

  async get(ctx: OperationContext, id: number) {
    return { result: true as const, connection: connectionView(await this.row(ctx, id), this.publicBaseUrl) };
  }

  async remove(ctx: OperationContext, id: number) {
    await this.row(ctx, id);
    await repo.deleteConnection(ctx.db, businessOf(ctx), id);
    return { result: true as const };
  }

  /** The connection of the caller's business, or 404 alike whether it is another's or none. */
  async row(ctx: OperationContext, id: number) {
    const row = await repo.connectionOf(ctx.db, businessOf(ctx), id);
    if (!row) throw new AppError('THIRD_PARTY_CONNECTION_NOT_FOUND', { params: { id } });
    return row;
  }

  /** The connection's provider, its credential unsealed for this use only. */
  async providerOf(row: repo.ConnectionRow): Promise<DeliveryProvider> {
    const adapter = this.adapters.get(row.adapter);
    if (!adapter) throw new Error(`No adapter ${row.adapter} is registered`);
    const credential = row.credential_sealed ? await this.vault.open(row.credential_sealed, row.id) : null;
    return adapter({ baseUrl: row.base_url, credential, mapping: row.mapping });
  }

  private async sealed(credential: string, id: number) {
    return {
      credential_sealed: await this.vault.seal(credential, id),
      credential_hint: `…${credential.slice(-4)}`,
    };
  }

  /** A seed-only adapter is unknown to everyone but the seed: an API caller can neither choose nor see it. */
  private requireAdapter(name: string, seeded: boolean): void {
    if (!this.adapters.has(name) || (!seeded && this.seedOnly.has(name)))
      throw new AppError('THIRD_PARTY_ADAPTER_UNKNOWN', {
        params: { adapter: name },
        details: {
          field: 'adapter',
          adapters: [...this.adapters.keys()].filter((known) => !this.seedOnly.has(known)),
        },
      });
  }

  /** A provider URL every call would refuse (a private or metadata address) is refused when saved. */
  private async requireCallable(url: string): Promise<void> {
    try {
      await checkDestination(url, this.rules);
    } catch (error) {
      if (!(error instanceof OutboundRefused)) throw error;
      throw new AppError('THIRD_PARTY_URL_REFUSED', {
        params: { reason: error.message },
        details: { field: 'base_url', reason: error.reason },
      });
    }
  }
}
