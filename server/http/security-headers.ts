import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** CSP nonce of this response: every inline script of the page carries it. */
    cspNonce: string;
  }
}

export interface SecurityHeadersOptions {
  isProduction: boolean;
  /** Extra sources allowed per directive (pixel, payment frames), added by the features that need them. */
  extraSources?: Partial<Record<'script-src' | 'connect-src' | 'frame-src' | 'img-src', string[]>>;
}

/** Page policy: scripts only from us or with this response's nonce. */
function pageContentSecurityPolicy(nonce: string, options: SecurityHeadersOptions): string {
  const extra = options.extraSources ?? {};
  const join = (directive: keyof NonNullable<SecurityHeadersOptions['extraSources']>, base: string[]) => [...base, ...(extra[directive] ?? [])].join(' ');
  const devConnect = options.isProduction ? [] : ['ws:'];
  return [
    "default-src 'self'",
    `script-src ${join('script-src', ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"])}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${join('img-src', ["'self'", 'data:', 'blob:'])}`,
    "font-src 'self'",
    `connect-src ${join('connect-src', ["'self'", ...devConnect])}`,
    `frame-src ${join('frame-src', ["'self'"])}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * Games may only use what they ship. `sandbox` gives every game document an opaque origin, framed
 * or opened directly, so no game can read the portal's cookies (the session token) or storage,
 * or call its API as the player.
 */
const GAME_CONTENT_SECURITY_POLICY = [
  'sandbox allow-scripts allow-pointer-lock',
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "connect-src 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** Whether a request path is below /games/ (also when a client writes the slash encoded or doubled). */
function isGamePath(url: string): boolean {
  let path = url.split('?')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape is not a game file either way; the raw path is checked.
  }
  return /^\/+games(\/|\\|$)/i.test(path.replaceAll('\\', '/'));
}

/** Sets the security headers of every response, and the page CSP with a fresh nonce on HTML. */
export const securityHeaders = fp<SecurityHeadersOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('cspNonce', '');
    app.addHook('onRequest', async (request) => {
      request.cspNonce = randomBytes(16).toString('base64');
    });
    app.addHook('onSend', async (request, reply, payload) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      // A page may choose its own (the sign-in pop-up pages keep their opener across the provider's pages).
      if (!reply.hasHeader('Referrer-Policy')) reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
      if (!reply.hasHeader('Cross-Origin-Opener-Policy')) reply.header('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
      reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
      if (options.isProduction) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      if (!reply.hasHeader('Content-Security-Policy')) {
        const type = String(reply.getHeader('content-type') ?? '');
        if (isGamePath(request.url)) {
          reply.header('Content-Security-Policy', GAME_CONTENT_SECURITY_POLICY);
        } else if (type.startsWith('text/html')) {
          reply.header('Content-Security-Policy', pageContentSecurityPolicy(request.cspNonce, options));
          reply.header('X-Frame-Options', 'SAMEORIGIN');
        } else {
          reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
        }
      }
      return payload;
    });
  },
  { name: 'security-headers' },
);
