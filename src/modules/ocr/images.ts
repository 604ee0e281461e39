import { randomBytes } from 'node:crypto';
import { businessOf, type OperationContext } from '../../platform/catalog/operation.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { enqueue, type OutboxHandler } from '../../platform/outbox/outbox.ts';
import type { FileStorage } from '../../platform/storage/index.ts';
import { checkLabel, type LabelMediaType } from './reading/index.ts';
import * as repo from './repository.ts';

/** The outbox topic of a kept label image's removal, due at its expiry. */
export const LABEL_IMAGE_EXPIRY_TOPIC = 'label_image.expire';
export const MAX_KEEP_DAYS = 365;
const DAY_MS = 86_400_000;

/** A kept image's file name ends as its type says. */
const EXTENSIONS: Record<LabelMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
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
    // Refused as the reader refuses a label: its type, its size, its header.
    const type = await checkLabel(bytes, contentType);
    const key = `labels/${businessId}/${randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`;
    await ctx.outside.perform(
      { kind: 'file', description: `keep a ${bytes.length}-byte ${type} label of order ${orderId}` },
      () => this.storage.put(key, bytes, type),
      () => undefined,
    );
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + days * DAY_MS);
    const id = await repo.insertImage(ctx.db, {
      business_id: businessId,
      order_id: orderId,
      storage_key: key,
      content_type: type,
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
