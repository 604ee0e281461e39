import { AppError, payloadTooLarge } from '../../../platform/errors.ts';
import { WorkerPool, type WorkerPoolOptions, workerEntry } from '../../../platform/workers.ts';
import { checkSize } from './image.ts';
import { LABEL_MEDIA_TYPES, type LabelMediaType, labelNotReadable, MAX_LABEL_BYTES } from './limits.ts';
import type { LabelReading } from './types.ts';

/** A read takes about a second; one still running after this is a fault, not a hard label. */
const READ_BUDGET_MS = 30_000;

/**
 * Reads shipping labels on a bounded pool of threads (the cores but one by default), so a
 * second of recognition never holds the event loop. What can be refused from the header alone
 * (the type, the byte and pixel limits) is refused here, before the image waits for a thread.
 */
export class LabelReader {
  private readonly pool: WorkerPool;

  private readonly ownTrackingUrl: string | undefined;

  /**
   * `ownTrackingUrl` is where the service's own labels link their QR code (`{base}/track`): a
   * number in such a link is the service's own tracking number.
   */
  constructor(options: Omit<WorkerPoolOptions, 'busy'> & { ownTrackingUrl?: string } = {}) {
    const { ownTrackingUrl, ...pool } = options;
    this.ownTrackingUrl = ownTrackingUrl;
    this.pool = new WorkerPool(workerEntry('label-worker'), { ...pool, busy: 'LABEL_READER_BUSY' });
  }

  async read(bytes: Buffer, mediaType: string): Promise<LabelReading> {
    const type = await checkLabel(bytes, mediaType);
    return this.pool.run<LabelReading>(
      'read_label',
      { bytes, type, ownTrackingUrl: this.ownTrackingUrl },
      READ_BUDGET_MS,
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * The reader `parse_label` reads with, for a service at `publicBaseUrl`: its own labels link their
 * QR code to `{publicBaseUrl}/track/{number}`, so a number in such a link is read as the service's
 * own (carrier `tms`). The service and `tms label read` both make their reader here, so the command
 * line reads a file as the service would.
 */
export function serviceLabelReader(
  publicBaseUrl: string,
  pool: Omit<WorkerPoolOptions, 'busy'> = {},
): LabelReader {
  return new LabelReader({ ...pool, ownTrackingUrl: `${publicBaseUrl.replace(/\/+$/, '')}/track` });
}

/**
 * What can be refused of a label from its header alone, in this order: a type the reader does not
 * read (415), more bytes than it takes (413), bytes that are not of the type said or pixels past
 * the limits (422). Answers the type, without parameters. No pixel is decoded.
 */
export async function checkLabel(bytes: Buffer, mediaType: string | undefined): Promise<LabelMediaType> {
  const type = labelTypeOf(mediaType);
  if (bytes.length > MAX_LABEL_BYTES) throw payloadTooLarge(MAX_LABEL_BYTES);
  await checkHeader(bytes, type);
  return type;
}

/** The declared media type, without parameters; 415 unless it is one the reader reads. */
function labelTypeOf(mediaType: string | undefined): LabelMediaType {
  const bare = (mediaType ?? '').split(';')[0]!.trim().toLowerCase();
  const type = LABEL_MEDIA_TYPES.find((candidate) => candidate === bare);
  if (!type) throw new AppError('UNSUPPORTED_LABEL_TYPE');
  return type;
}

async function checkHeader(bytes: Buffer, type: LabelMediaType): Promise<void> {
  if (type === 'application/pdf') {
    if (!bytes.subarray(0, 1024).includes('%PDF-')) throw labelNotReadable(type);
    return;
  }
  // The header only: sharp reads it on libuv's threads, and no pixel is decoded. Loaded at the
  // first label, not at every start.
  const { default: sharp } = await import('sharp');
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height || `image/${meta.format}` !== type) throw labelNotReadable(type);
  checkSize(meta.width, meta.height);
}
