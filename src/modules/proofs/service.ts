import { createHash, randomBytes } from 'node:crypto';
import { businessOf, callerOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { FileStorage, StoredFile } from '../../platform/storage/index.ts';
import type { OrderStatusChange, OrderStatusListener, OrdersService } from '../orders/index.ts';
import { imageSize, MAX_IMAGE_SIDE, PROOF_MEDIA_TYPES, type ProofMediaType } from './images.ts';
import { type ProofLinkSettings, ProofLinks } from './links.ts';
import * as repo from './repository.ts';

/** The largest image a proof upload takes (8 MiB): a phone photo, with room to spare. */
export const MAX_PROOF_BYTES = 8 * 1024 * 1024;

export const PROOF_KINDS = ['signature', 'photo'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

export interface ProofUpload {
  orderId: number;
  kind: ProofKind;
  /** The body; absent when the request carried none, or fields instead of an image. */
  bytes: Buffer | undefined;
  /** The media type the request declared for it. */
  contentType: string | undefined;
  /** The uploader's own id of this upload: sent again, it answers the first upload. */
  clientId?: string;
}

/** A proof file as its uploader sees it: never its storage key. */
export interface ProofView {
  id: number;
  order_id: number;
  kind: ProofKind;
  content_type: string;
  size_bytes: number;
  sha256: string;
  width: number;
  height: number;
  uploaded_by: number;
  created_at: string;
}

/** A proof image served through a signed link, and how long a browser may keep it. */
export interface ServedProof extends StoredFile {
  maxAgeSeconds: number;
}

/**
 * Proofs of delivery: the signature and photos uploaded for an order, kept in the file storage;
 * the status changes that name them (checked to be the order's own); and short-lived signed
 * links through which the public tracking page shows them.
 */
export class ProofsService implements OrderStatusListener {
  readonly links: ProofLinks;

  constructor(
    private readonly clock: Clock,
    private readonly orders: OrdersService,
    private readonly storage: FileStorage,
    links: ProofLinkSettings,
  ) {
    this.links = new ProofLinks(clock, links);
  }

  /**
   * Stores an image for an order: staff of the business for any of its orders, a driver for an
   * order on a route of theirs only (any other order is not found). The bytes must be an image of
   * the declared type, its header giving a size within bounds.
   */
  async upload(ctx: OperationContext, upload: ProofUpload): Promise<ProofView> {
    const businessId = businessOf(ctx);
    const caller = callerOf(ctx);
    if (upload.clientId !== undefined) {
      const first = await repo.byClientId(ctx.db, businessId, caller.userId, upload.clientId);
      if (first) return viewOf(first);
    }
    const order = (await this.orders.queries.summaries(ctx.db, businessId, [upload.orderId])).get(
      upload.orderId,
    );
    const mayUpload =
      order !== undefined &&
      (caller.kind !== 'driver' || (order.route_id !== null && order.driver_user_id === caller.userId));
    if (!mayUpload) throw new AppError('ORDER_NOT_FOUND', { params: { order: upload.orderId } });

    const type = PROOF_MEDIA_TYPES.find((candidate) => candidate === upload.contentType);
    if (!type || !upload.bytes) throw new AppError('UNSUPPORTED_PROOF_TYPE');
    const size = imageSize(upload.bytes, type);
    if (!size) {
      throw new AppError('PROOF_NOT_AN_IMAGE', {
        params: { type, max_pixels: MAX_IMAGE_SIDE },
        details: { type, max_pixels: MAX_IMAGE_SIDE },
      });
    }
    const bytes = upload.bytes;
    const key = storageKey(businessId, type);
    await ctx.outside.perform(
      { kind: 'file', description: `store a ${bytes.length}-byte ${type} proof of order ${upload.orderId}` },
      () => this.storage.put(key, bytes, type),
      () => undefined,
    );
    const stored = await repo.insertProof(ctx.db, {
      business_id: businessId,
      order_id: upload.orderId,
      kind: upload.kind,
      storage_key: key,
      content_type: type,
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      width: size.width,
      height: size.height,
      uploaded_by: caller.userId,
      client_id: upload.clientId ?? null,
      created_at: this.clock.now(),
    });
    // Null: the same client_id arrived twice at once, and the other one was recorded first.
    const recorded = stored ?? (await repo.byClientId(ctx.db, businessId, caller.userId, upload.clientId!))!;
    return viewOf(recorded);
  }

  /**
   * The image behind a signed link: only while the link's signature is the service's own and it
   * has not expired; a wrong, expired or made-up link and a missing file are refused alike.
   */
  async serve(
    db: Queryable,
    link: { proofId: string; expires?: string; signature?: string },
  ): Promise<ServedProof> {
    const refused = new AppError('PROOF_LINK_INVALID');
    const proofId = wholeNumber(link.proofId);
    const expires = wholeNumber(link.expires);
    if (proofId === null || expires === null || !link.signature) throw refused;
    const left = await this.links.secondsLeft(proofId, expires, link.signature);
    if (left === null) throw refused;
    const found = await repo.storedFile(db, proofId);
    const file = found ? await this.storage.get(found.storage_key) : null;
    if (!file) throw refused;
    return { ...file, maxAgeSeconds: left };
  }

  /**
   * Refuses a status change whose proof of delivery names proof files that are not the order's
   * own uploads of that kind (a signature as signature_proof_id, photos as photo_proof_ids).
   */
  async orderStatusChanged(ctx: OperationContext, change: OrderStatusChange): Promise<void> {
    const pod = change.details?.pod;
    const named = [
      ...(pod?.signature_proof_id === undefined ? [] : [{ id: pod.signature_proof_id, kind: 'signature' }]),
      ...(pod?.photo_proof_ids ?? []).map((id) => ({ id, kind: 'photo' })),
    ];
    if (named.length === 0) return;
    const ids = [...new Set(named.map((proof) => proof.id))];
    const kinds = new Map(
      (await repo.kindsOf(ctx.db, change.businessId, change.order.id, ids)).map((row) => [row.id, row.kind]),
    );
    const foreign = named.find((proof) => kinds.get(proof.id) !== proof.kind);
    if (foreign) {
      throw new AppError('PROOF_NOT_FOUND', {
        params: { proof: foreign.id, kind: foreign.kind },
        details: { proof_id: foreign.id, kind: foreign.kind },
      });
    }
  }
}

const EXTENSIONS: Record<ProofMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** 128 random bits: no key can be guessed from another, an id or a time. */
function storageKey(businessId: number, type: ProofMediaType): string {
  return `proofs/${businessId}/${randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`;
}

function wholeNumber(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

function viewOf(row: repo.StoredProof): ProofView {
  return {
    id: row.id,
    order_id: row.order_id,
    kind: row.kind,
    content_type: row.content_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    width: row.width,
    height: row.height,
    uploaded_by: row.uploaded_by,
    created_at: row.created_at.toISOString(),
  };
}
