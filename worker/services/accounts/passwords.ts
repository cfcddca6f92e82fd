// PBKDF2-SHA256 through WebCrypto; 100,000 iterations is the most Workers allow.
// New passwords are first rated by zxcvbn against its common-password and word lists.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { fromBase64, toBase64Url } from '../../lib/crypto';
import { invalid } from '../../lib/errors';
import { PASSWORD_TOO_GUESSABLE } from '../../schemas/auth';

const ITERATIONS = 100_000;
const encoder = new TextEncoder();

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** "pbkdf2_sha256$<iterations>$<salt>$<hash>" so the cost can change without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, ITERATIONS);
  return `pbkdf2_sha256$${ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== 'pbkdf2_sha256' || !salt || !hash) return false;
  const candidate = await derive(password, fromBase64(salt), Number(iterations));
  return constantTimeEqual(candidate, fromBase64(hash));
}

/** Spent on unknown emails too, so a login's timing does not reveal whether the account exists. */
export const DUMMY_PASSWORD_HASH = 'pbkdf2_sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** zxcvbn's 0..4 scale: 2 is "somewhat guessable", about 10^8 guesses, slow to try against PBKDF2. */
const MIN_STRENGTH_SCORE = 2;
/** Rating cost grows steeply with length (a 128-character password takes hundreds of milliseconds); past 64 characters the start decides. */
const RATED_LENGTH = 64;
let estimator: ZxcvbnFactory | undefined;

/** Words of the person's own name and email, which guessers try first. */
function personalWords(person: { email?: string; fullName?: string }): string[] {
  const text = `${person.fullName ?? ''} ${person.email?.split('@')[0] ?? ''}`.toLowerCase();
  return [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3))];
}

/**
 * Refuses a new password that is one common password or word (`password`, `12345678`, `qwerty123`,
 * even in l33t or reversed) or scores under 2. Called after the cheaper checks of each flow.
 */
export function assertHardToGuess(password: string, person: { email?: string; fullName?: string } = {}): void {
  // Built on first use: ranking the lists costs tens of milliseconds that other requests should not pay.
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: RATED_LENGTH });
  const { score, sequence } = estimator.check(password, personalWords(person));
  const oneListedWord = sequence.length === 1 && sequence[0].pattern === 'dictionary';
  if (score < MIN_STRENGTH_SCORE || oneListedWord) throw invalid(PASSWORD_TOO_GUESSABLE);
}
