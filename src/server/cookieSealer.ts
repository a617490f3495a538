// The session cookie's lock: AES-256-GCM through WebCrypto (Node, Bun, Deno and edge runtimes all
// have it), a key derived from the app's secret with HKDF-SHA-256, a fresh 96-bit nonce per seal,
// and the cookie's purpose as additional data, so a value sealed for one cookie never opens as
// another. What it seals is the whole session: nothing about it is kept on the server.

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The shortest secret a session may be sealed with: 32 characters. */
export const MIN_SECRET_LENGTH = 32

/** Marks a value sealed by this code's first format; a later format gets another mark, and both open. */
const FORMAT = 'e1.'
const NONCE_BYTES = 12

/** Seals and opens the values of echo-rtk's cookies. */
export interface CookieSealer {
  /** `value` as JSON, encrypted and authenticated for `purpose` (the cookie it is for). */
  seal(value: unknown, purpose: string): Promise<string>
  /**
   * The value sealed in `sealed` for `purpose`, or `null` when it is not one: tampered with, sealed
   * with another secret or for another cookie, or not a sealed value at all. Never throws.
   */
  open(sealed: string, purpose: string): Promise<unknown>
}

/**
 * A sealer over `secrets`: the first seals, every one opens (so a secret can be rotated: put the new
 * one first, keep the old one until the cookies it sealed have expired).
 */
export function createCookieSealer(secrets: readonly string[]): CookieSealer {
  const keys = secrets.map(deriveKey)
  return {
    async seal(value, purpose) {
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES))
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: nonce, additionalData: encoder.encode(purpose) },
        await keys[0]!,
        encoder.encode(JSON.stringify(value)),
      )
      return FORMAT + toBase64Url(concat(nonce, new Uint8Array(sealed)))
    },
    async open(sealed, purpose) {
      if (!sealed.startsWith(FORMAT)) return null
      const bytes = fromBase64Url(sealed.slice(FORMAT.length))
      if (bytes === null || bytes.length <= NONCE_BYTES) return null
      const params = { name: 'AES-GCM', iv: bytes.slice(0, NONCE_BYTES), additionalData: encoder.encode(purpose) }
      for (const key of keys) {
        try {
          const opened = await crypto.subtle.decrypt(params, await key, bytes.slice(NONCE_BYTES))
          return JSON.parse(decoder.decode(opened)) as unknown
        } catch {
          // Another secret's seal, or none of ours: the next key, then nothing.
        }
      }
      return null
    },
  }
}

async function deriveKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('echo-rtk cookies'), info: encoder.encode('AES-256-GCM') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

/** `count` random bytes as base64url text: states, PKCE verifiers. */
export function randomText(count: number): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(count)))
}

/** The PKCE S256 challenge of `verifier` (RFC 7636). */
export async function pkceChallenge(verifier: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(verifier))))
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

function toBase64Url(bytes: Uint8Array): string {
  // In pieces: String.fromCharCode takes its arguments on the stack.
  let binary = ''
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  let binary: string
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  } catch {
    return null
  }
  const bytes = new Uint8Array(binary.length)
  for (let at = 0; at < binary.length; at += 1) bytes[at] = binary.charCodeAt(at)
  return bytes
}
