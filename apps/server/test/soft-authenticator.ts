import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

/*
 * A software WebAuthn authenticator for the API tests: what a browser and a platform authenticator answer
 * to `create()` and `get()` (packed in their JSON forms, ES256, attestation "none"), built by hand from
 * the WebAuthn Level 3 formats so the server's real verification runs on them. The e2e tests use
 * Chromium's own virtual authenticator instead.
 */

// ---- a minimal CBOR encoder (RFC 8949): unsigned and negative integers, byte and text strings, maps ----

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftPasskey {
  id: string;
  privateKey: KeyObject;
  counter: number;
  userHandle: string;
}

export class SoftAuthenticator {
  readonly passkeys: SoftPasskey[] = [];

  /** `origin`: the page's origin the browser reports; the RP id is its host name unless given. */
  constructor(
    private readonly origin: string,
    private readonly rpID = new URL(origin).hostname,
  ) {}

  /** What `navigator.credentials.create()` answers (RegistrationResponseJSON), and the passkey made. */
  create(options: Record<string, unknown>): { response: Record<string, unknown>; passkey: SoftPasskey } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const id = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(this.rpID),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      Buffer.alloc(4),
      Buffer.alloc(16), // AAGUID
      idLength,
      id,
      cbor(cose),
    ]);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = this.clientData('webauthn.create', String(options.challenge));
    const user = options.user as { id: string };
    const passkey: SoftPasskey = { id: b64url(id), privateKey, counter: 0, userHandle: user.id };
    this.passkeys.push(passkey);
    return {
      passkey,
      response: {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform',
      },
    };
  }

  /** What `navigator.credentials.get()` answers (AuthenticationResponseJSON) with `passkey`. */
  get(
    options: Record<string, unknown>,
    passkey: SoftPasskey = this.passkeys[0]!,
    override: { origin?: string; rpID?: string } = {},
  ): Record<string, unknown> {
    passkey.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(passkey.counter);
    const authData = Buffer.concat([
      sha256(override.rpID ?? this.rpID),
      Buffer.from([FLAG_UP | FLAG_UV]),
      counter,
    ]);
    const clientData = this.clientData('webauthn.get', String(options.challenge), override.origin);
    const signature = createSign('sha256')
      .update(Buffer.concat([authData, sha256(clientData)]))
      .sign(passkey.privateKey);
    return {
      id: passkey.id,
      rawId: passkey.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: passkey.userHandle,
      },
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
