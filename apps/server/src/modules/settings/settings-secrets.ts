import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * Third-party secrets in synced settings (p-stream's Trakt, FebBox, debrid and TIDB keys) are sealed with
 * AES-256-GCM under a key kept in a file of the data folder, not in the database: a database dump or
 * backup alone does not reveal them (decision 094).
 */

/** The key file in DATA_DIR: 32 random bytes, base64url, made once (mode 0600). */
export const SETTINGS_KEY_FILE = 'settings-secrets.key';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens settings secrets with one key; the context (library and field) is authenticated too. */
export class SecretBox {
  /** Names the key in each envelope, so a replaced key file is told apart from a damaged value. */
  readonly keyId: string;
  private readonly key: Buffer;

  constructor(material: Buffer) {
    // A key of its own for this use, should the file ever serve another.
    this.key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'marquee settings secrets v1', 32));
    this.keyId = createHash('sha256').update(this.key).digest('base64url').slice(0, 8);
  }

  /** `v1.<keyId>.<iv>.<ciphertext+tag>`, base64url parts. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.keyId, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** The plain text, or undefined when the envelope is not ours, was sealed by another key, or was altered. */
  open(envelope: string, context: string): string | undefined {
    const [version, keyId, iv, sealed, ...rest] = envelope.split('.');
    if (version !== VERSION || keyId !== this.keyId || !iv || !sealed || rest.length) return undefined;
    try {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < TAG_BYTES) return undefined;
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/** The key id an envelope names (for the logs), or undefined. */
export const keyIdOf = (envelope: string): string | undefined => envelope.split('.')[1];

function parseKeyFile(text: string, file: string): Buffer {
  const material = Buffer.from(text.trim(), 'base64url');
  if (material.length !== 32)
    throw new Error(`${file} is damaged: it must hold 32 bytes (base64url); restore it from your backup`);
  return material;
}

/**
 * Reads the key file, making it first when there is none. Processes sharing the data folder (compose's
 * replicas) agree: the file appears whole, by a hard link of a finished temporary file, and the first
 * link wins.
 */
export async function loadKeyFile(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SETTINGS_KEY_FILE);
  try {
    return parseKeyFile(await readFile(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return parseKeyFile(await readFile(file, 'utf8'), file);
}

/** The box, its key read (or made) on first use and then kept; a failed read is tried again next time. */
export class SettingsSecrets {
  private box: Promise<SecretBox> | undefined;

  constructor(private readonly loadKey: () => Promise<Buffer>) {}

  static inDataDir(dataDir: string): SettingsSecrets {
    return new SettingsSecrets(() => loadKeyFile(dataDir));
  }

  get(): Promise<SecretBox> {
    this.box ??= this.loadKey().then(
      (material) => new SecretBox(material),
      (error: unknown) => {
        this.box = undefined;
        throw error;
      },
    );
    return this.box;
  }
}
