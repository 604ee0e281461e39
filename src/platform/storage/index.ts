import { DiskStorage } from './disk.ts';
import { S3Storage } from './s3.ts';
import type { FileStorage, StorageSettings } from './storage.ts';

export type { FileStorage, StorageSettings, StoredFile } from './storage.ts';

/** The storage the settings name. */
export function storageOf(settings: StorageSettings): FileStorage {
  return settings.kind === 's3' ? new S3Storage(settings) : new DiskStorage(settings.directory);
}
