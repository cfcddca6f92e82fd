// Small WebCrypto helpers shared by sessions, payments and the encryption of stored keys.
const encoder = new TextEncoder();

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const normalized = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(normalized + '='.repeat((4 - (normalized.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/** An unguessable token for refresh tokens, reset links and references. */
export function randomToken(byteLength = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

type HmacHash = 'SHA-256' | 'SHA-512';

async function hmacKey(secret: string, hash: HmacHash, usage: KeyUsage) {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash }, false, [usage]);
}

export async function hmacHex(secret: string, data: string | ArrayBuffer, hash: HmacHash = 'SHA-256'): Promise<string> {
  const key = await hmacKey(secret, hash, 'sign');
  return toHex(await crypto.subtle.sign('HMAC', key, typeof data === 'string' ? encoder.encode(data) : data));
}

/** Constant-time check of a hex HMAC (crypto.subtle.verify compares in constant time). */
export async function verifyHmacHex(secret: string, data: string | ArrayBuffer, signatureHex: string, hash: HmacHash = 'SHA-256'): Promise<boolean> {
  const signature = fromHex(signatureHex);
  if (!signature || signature.length === 0) return false;
  const key = await hmacKey(secret, hash, 'verify');
  return crypto.subtle.verify('HMAC', key, signature, typeof data === 'string' ? encoder.encode(data) : data);
}

async function aesKey(base64Key: string) {
  const raw = fromBase64(base64Key);
  if (raw.length !== 32) throw new Error('ENCRYPTION_KEY must be base64 of 32 bytes');
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** Encrypts a secret for storage: "v1.<iv>.<ciphertext>" in base64url. */
export async function encryptSecret(base64Key: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(base64Key), encoder.encode(plaintext));
  return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ciphertext))}`;
}

export async function decryptSecret(base64Key: string, stored: string): Promise<string> {
  const [version, iv, ciphertext] = stored.split('.');
  if (version !== 'v1' || !iv || !ciphertext) throw new Error('unknown secret format');
  const plaintext = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, await aesKey(base64Key), fromBase64(ciphertext));
  return new TextDecoder().decode(plaintext);
}
