/** Reads one cookie from a Cookie header or `document.cookie`; the raw (still encoded) value. */
export function readCookie(name: string, source: string | null | undefined): string | null {
  if (!source) return null;
  for (const part of source.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

export interface CookieOptions {
  maxAgeDays?: number;
  path?: string;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Server-set cookies only: out of reach of the page's script. */
  httpOnly?: boolean;
}

/** A Set-Cookie / document.cookie string. The value must already be safe (encoded). */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`];
  if (options.maxAgeDays !== undefined) parts.push(`Max-Age=${Math.round(options.maxAgeDays * 86_400)}`);
  if (options.sameSite) parts.push(`SameSite=${options.sameSite}`);
  if (options.secure) parts.push('Secure');
  if (options.httpOnly) parts.push('HttpOnly');
  return parts.join('; ');
}

/** Sets a cookie in the browser. */
export function writeBrowserCookie(name: string, value: string, options: CookieOptions = {}): void {
  // oxlint-disable-next-line unicorn/no-document-cookie -- the Cookie Store API is not in every browser we support
  document.cookie = serializeCookie(name, value, options);
}
