import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import path from 'node:path';
import { readOrCreatePrivateFile } from '../../platform/private-file.ts';

/** The file beside the data that keeps a generated key when none is configured. */
export const KEY_FILE = 'document-signing-key.pem';

/** PKCS#8 DER of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The server key that signs document fingerprints. */
export interface SigningKey {
  /** The first 16 hex digits of the SHA-256 of the raw 32-byte public key. */
  keyId: string;
  privateKey: KeyObject;
  /** SubjectPublicKeyInfo PEM, as published at GET /api/v1/documents/public-key. */
  publicKeyPem: string;
}

/**
 * A configured key: a PKCS#8 PEM (literal `\n` accepted, as environments often carry them) or the
 * base64 / base64url of a 32-byte seed. Throws when it is neither, or not an Ed25519 key.
 */
export function parseSigningKey(text: string): SigningKey {
  const trimmed = text.trim().replaceAll('\\n', '\n');
  let privateKey: KeyObject;
  if (trimmed.startsWith('-----BEGIN')) {
    try {
      privateKey = createPrivateKey(trimmed);
    } catch (error) {
      throw new Error('is not a readable PKCS#8 PEM private key', { cause: error });
    }
  } else {
    const seed = Buffer.from(trimmed, 'base64');
    if (seed.length !== 32 || !/^[\w+/-]+={0,2}$/.test(trimmed)) {
      throw new Error('must be a PKCS#8 PEM or the base64 of a 32-byte Ed25519 seed');
    }
    privateKey = createPrivateKey({
      key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
      format: 'der',
      type: 'pkcs8',
    });
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`must be an Ed25519 key, not ${privateKey.asymmetricKeyType}`);
  }
  return signingKeyOf(privateKey);
}

function signingKeyOf(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  return {
    keyId: createHash('sha256').update(raw).digest('hex').slice(0, 16),
    privateKey,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
}

/** The key generated once and kept in `dataDir`. */
export async function readOrCreateKeyFile(dataDir: string): Promise<SigningKey> {
  const file = path.join(dataDir, KEY_FILE);
  const text = await readOrCreatePrivateFile(file, () =>
    generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  );
  return parseKeyFile(file, text);
}

function parseKeyFile(file: string, text: string): SigningKey {
  try {
    return parseSigningKey(text);
  } catch (error) {
    throw new Error(`The document signing key in ${file} ${(error as Error).message}`, { cause: error });
  }
}
