import type { S3Client } from '@aws-sdk/client-s3';
import { checkKey, type FileStorage, type StoredFile } from './storage.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key` (MinIO, most self-hosted servers). */
  forcePathStyle: boolean;
}

/** Files in a bucket of an S3-compatible server (AWS S3, MinIO, Ceph, R2, ...), one object a key. */
export class S3Storage implements FileStorage {
  // The SDK (a tenth of a second to load) loads at the first file: a start does not wait for it.
  private client?: S3Client;

  constructor(private readonly settings: S3Settings) {}

  private async sdk() {
    const sdk = await import('@aws-sdk/client-s3');
    this.client ??= new sdk.S3Client({
      endpoint: this.settings.endpoint,
      region: this.settings.region,
      forcePathStyle: this.settings.forcePathStyle,
      credentials: { accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey },
      // Checksums only where S3 requires them: many compatible servers do not speak the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { ...sdk, client: this.client };
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const { client, PutObjectCommand } = await this.sdk();
    await client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: checkKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    const { client, GetObjectCommand, S3ServiceException } = await this.sdk();
    try {
      const answer = await client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: checkKey(key) }),
      );
      const bytes = Buffer.from(await answer.Body!.transformToByteArray());
      return { bytes, contentType: answer.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { client, DeleteObjectCommand } = await this.sdk();
    // S3 answers a delete of a missing key as done.
    await client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: checkKey(key) }));
  }

  /** Closes the client's connections (none before the first file). */
  close(): void {
    this.client?.destroy();
  }
}
