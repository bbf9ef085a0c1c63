import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';

export interface ReactRouterOptions {
  /** Loads the server build: the built module in production, Vite's module in development. */
  getBuild: () => Promise<ServerBuild>;
  mode: 'production' | 'development';
  /** Fills the context of one request; receives the context key exported by entry.server. */
  fillContext: (request: FastifyRequest, context: RouterContextProvider, build: ServerBuild) => void;
}

/**
 * Mounts React Router's request handler for every path the other routes did not take.
 * Registered in its own scope so page requests keep their body unread for React Router.
 */
export const reactRouterPlugin: FastifyPluginAsync<ReactRouterOptions> = async (app, options) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const build = await options.getBuild();
    const handler = createRequestHandler(build, options.mode);
    const context = new RouterContextProvider();
    options.fillContext(request, context, build);
    const response = await handler(toWebRequest(request, reply), context);
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (name === 'set-cookie') continue;
      reply.header(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (!response.body) return reply.send();
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  });
};

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const origin = `${request.protocol}://${request.host}`;
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(origin + request.url, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}
