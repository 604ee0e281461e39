/** A file as it was stored: its bytes and the media type it was stored with. */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where files (proofs of delivery, ...) go: the data directory by default, an S3-compatible
 * bucket by configuration. Keys are chosen by the service, never by a caller.
 */
export interface FileStorage {
  /** Stores the bytes under the key, replacing what it held; visible to `get` only once whole. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file under the key; null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Forgets the file under the key; nothing happens when there is none. */
  delete(key: string): Promise<void>;
}

/** Where files go: a directory, or an S3-compatible bucket. */
export type StorageSettings =
  | { kind: 'disk'; directory: string }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      region: string;
      forcePathStyle: boolean;
    };

/** Slash-separated segments of letters, digits, `_`, `-` and inner dots: never `..`, never absolute. */
const KEY =
  /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?:\/[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)*$/;
const MAX_KEY_LENGTH = 512;

/** Throws on a key that could leave the storage's place or mean different things to its backends. */
export function checkKey(key: string): string {
  if (key.length > MAX_KEY_LENGTH || !KEY.test(key))
    throw new Error(`Bad storage key ${JSON.stringify(key)}`);
  return key;
}
