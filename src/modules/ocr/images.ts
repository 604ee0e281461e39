import { randomBytes } from 'node:crypto';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { FileStorage } from '../../platform/storage/index.ts';
import * as repo from './repository.ts';

/** The outbox topic of a kept label image's removal, due at its expiry. */
export const LABEL_IMAGE_EXPIRY_TOPIC = 'label_image.expire';
export const MAX_KEEP_DAYS = 365;
const DAY_MS = 86_400_000;

/** What each label media type starts with: an image kept is the type it says it is. */
const SIGNATURES: Record<string, { bytes: Buffer; extension: string }> = {
  'image/png': { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), extension: 'png' },
  'image/jpeg': { bytes: Buffer.from([0xff, 0xd8, 0xff]), extension: 'jpg' },
  'application/pdf': { bytes: Buffer.from('%PDF-'), extension: 'pdf' },
};

interface ExpiryPayload {
  business_id: number;
  image_id: number;
}

/**
 * The label images a business chose to keep (by default none is): stored with the order created
 * from the label, removed from the storage when their days are over.
 */
export class LabelImages {
  constructor(
    private readonly clock: Clock,
    private readonly storage: FileStorage,
  ) {}

  async settings(ctx: OperationContext) {
    const row = await repo.settingsOf(ctx.db, businessOf(ctx));
    return {
      keep_label_images_days: row?.keep_label_images_days ?? 0,
      updated_at: row ? row.updated_at.toISOString() : null,
    };
  }

  /** Applies to images sent from now on: one kept already keeps its expiry. */
  async saveSettings(ctx: OperationContext, keepLabelImagesDays: number) {
    await repo.saveSettings(ctx.db, businessOf(ctx), keepLabelImagesDays, this.clock.now());
    return this.settings(ctx);
  }

  /**
   * Keeps a label image with its order for the business's days, and queues its removal at their
   * end. Refused when the business keeps none: the image was sent in vain, and the caller should know.
   */
  async keep(ctx: OperationContext, orderId: number, bytes: Buffer, contentType: string) {
    const businessId = businessOf(ctx);
    const days = (await repo.settingsOf(ctx.db, businessId))?.keep_label_images_days ?? 0;
    if (days === 0) throw new AppError('LABEL_IMAGES_NOT_KEPT');
    // As the reader refuses them: a type it does not read, or bytes that are not of the type said.
    const signature = SIGNATURES[contentType];
    if (!signature) throw new AppError('UNSUPPORTED_LABEL_TYPE');
    if (!bytes.subarray(0, signature.bytes.length).equals(signature.bytes)) {
      throw new AppError('LABEL_NOT_READABLE', {
        params: { type: contentType },
        details: { type: contentType },
      });
    }
    const key = `labels/${businessId}/${randomBytes(16).toString('hex')}.${signature.extension}`;
    await ctx.outside.perform(
      { kind: 'file', description: `keep a ${bytes.length}-byte ${contentType} label of order ${orderId}` },
      () => this.storage.put(key, bytes, contentType),
      () => undefined,
    );
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + days * DAY_MS);
    const id = await repo.insertImage(ctx.db, {
      business_id: businessId,
      order_id: orderId,
      storage_key: key,
      content_type: contentType,
      size_bytes: bytes.length,
      created_at: now,
      expires_at: expiresAt,
    });
    const payload: ExpiryPayload = { business_id: businessId, image_id: id };
    await enqueue(ctx.db, this.clock, {
      topic: LABEL_IMAGE_EXPIRY_TOPIC,
      businessId,
      payload,
      messageId: `${LABEL_IMAGE_EXPIRY_TOPIC}:${id}`,
      availableAt: expiresAt,
    });
    return { id, expires_at: expiresAt.toISOString() };
  }

  /** Removes an expired image: the file first, then its row, so a failure leaves it to try again. */
  expiryHandler(db: Db): OutboxHandler {
    return async (message) => {
      const { business_id: businessId, image_id: imageId } = message.payload as ExpiryPayload;
      try {
        const row = await repo.imageRow(db, businessId, imageId);
        if (!row) return { done: true };
        await this.storage.delete(row.storage_key);
        await repo.deleteImage(db, businessId, imageId);
        return { done: true };
      } catch (error) {
        return { retryAt: new Date(this.clock.now().getTime() + 60_000), error: String(error) };
      }
    };
  }
}
