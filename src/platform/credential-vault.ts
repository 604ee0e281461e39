import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreatePrivateFile } from './private-file.ts';

/** The file beside the data that keeps a generated key when THIRD_PARTY_CREDENTIAL_KEY is not set (its first user named it). */
const KEY_FILE = 'third-party-credential-key';
const VERSION = 'v1';

export interface CredentialKeySettings {
  /** THIRD_PARTY_CREDENTIAL_KEY; absent: generated once and kept in dataDir. */
  key: string | undefined;
  dataDir: string;
}

/**
 * Outside providers' credentials at rest (third-party delivery connections, SMS providers). The
 * service must send a credential, so it cannot be hashed the way our own tokens are: it is sealed
 * with AES-256-GCM under a server key (the configured one, or one generated once in the data
 * directory, mode 0600), with its owner (a connection, a business's SMS account) as associated
 * data so a sealed value copied onto another owner does not open. A database dump alone reveals
 * no credential.
 */
export class CredentialVault {
  private kept: Promise<Buffer> | undefined;

  constructor(private readonly settings: CredentialKeySettings) {}

  async seal(plain: string, owner: string | number): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.key(), iv);
    cipher.setAAD(Buffer.from(String(owner)));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, ...[iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join(
      '.',
    );
  }

  async open(sealed: string, owner: string | number): Promise<string> {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || !data)
      throw new Error('Not a sealed credential of this service');
    const decipher = createDecipheriv('aes-256-gcm', await this.key(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(String(owner)));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }

  /** 32 bytes from the configured text (SHA-256 of it: any length of 32+ characters works). */
  private key(): Promise<Buffer> {
    this.kept ??= (this.settings.key ? Promise.resolve(this.settings.key) : keyFile(this.settings.dataDir))
      .then((text) => createHash('sha256').update(text).digest())
      .catch((error) => {
        this.kept = undefined;
        throw error;
      });
    return this.kept;
  }
}

/** The key generated once and kept in `dataDir`. */
async function keyFile(dataDir: string): Promise<string> {
  const file = path.join(dataDir, KEY_FILE);
  const key = (await readOrCreatePrivateFile(file, () => `${randomBytes(32).toString('hex')}\n`)).trim();
  if (key.length < 32) throw new Error(`The credential key in ${file} is shorter than 32 characters`);
  return key;
}
