import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import type { Locale } from '#common/locales.ts';
import { translator } from '../i18n.ts';
import { AppError } from '../lib/app-error.ts';
import type { Caller } from '../lib/caller.ts';
import { parseOrThrow } from './validation.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDefinition<B extends Schema, Q extends Schema, P extends Schema> {
  method: HttpMethod;
  /** Path below the API prefix, with Fastify parameters (`/article/info/:id`). */
  url: string;
  summary: string;
  tags: string[];
  /** `required` answers 401 without a valid token; `optional` resolves the caller when there is one. */
  auth?: 'none' | 'optional' | 'required';
  /** State-changing calls check the XSRF token unless this is false (provider webhooks). */
  csrf?: boolean;
  /**
   * Also accepts a developer's Studio key (`pk_{id}_{random}`, decision 102) in place of a session
   * token; a call with a key needs no XSRF token (no browser sends one by itself). Without this,
   * a key authenticates nothing.
   */
  studioKey?: boolean;
  body?: B;
  /** A media type the body may come in besides JSON, for the OpenAPI document (a CSV the route's scope reads as text). */
  bodyContentType?: string;
  query?: Q;
  params?: P;
  /** Schema of a multipart/form-data body, for the OpenAPI document only: the handler reads the parts itself. */
  multipart?: z.ZodType;
  /** Schema of `data` in a successful response, for the OpenAPI document. */
  response?: z.ZodType;
  /** Success status (201 for creations). */
  status?: number;
  description?: string;
  /** Schema of an application/x-www-form-urlencoded body, for the OpenAPI document only. */
  formBody?: z.ZodType;
  /** Responses other than the envelope (a provider's own format), for the OpenAPI document. */
  rawResponses?: Record<string, { description: string; schema?: z.ZodType; contentType?: string }>;
}

export interface RouteContext<B extends Schema, Q extends Schema, P extends Schema> {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  locale: Locale;
  caller: Caller | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RegisteredRoute = RouteDefinition<Schema, Schema, Schema>;

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    auth?: 'none' | 'optional' | 'required';
    csrf?: boolean;
    studioKey?: boolean;
  }
}

/** Registers API routes on a Fastify scope and keeps their definitions for the OpenAPI document. */
export class ApiRouter {
  readonly routes: RegisteredRoute[] = [];
  readonly app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  /**
   * Documents a route that is registered on Fastify directly (it reads its raw body, or answers in
   * a provider's own format), so that the OpenAPI document still lists it.
   */
  documented(definition: RegisteredRoute): void {
    this.routes.push(definition);
  }

  route<B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(
    definition: RouteDefinition<B, Q, P>,
    handler: (ctx: RouteContext<B, Q, P>) => Promise<unknown> | unknown,
  ): void {
    this.routes.push(definition as RegisteredRoute);
    const auth = definition.auth ?? 'optional';
    this.app.route({
      method: definition.method,
      url: definition.url,
      config: { auth, csrf: definition.csrf ?? definition.method !== 'GET', studioKey: definition.studioKey ?? false },
      handler: async (request, reply) => {
        if (auth === 'required' && !request.caller) throw new AppError('unauthenticated');
        const locale = request.locale;
        const ctx: RouteContext<B, Q, P> = {
          params: (definition.params ? parseOrThrow(definition.params, request.params, locale) : undefined) as Out<P>,
          query: (definition.query ? parseOrThrow(definition.query, request.query ?? {}, locale) : undefined) as Out<Q>,
          body: (definition.body ? parseOrThrow(definition.body, request.body ?? {}, locale) : undefined) as Out<B>,
          locale,
          caller: request.caller,
          request,
          reply,
        };
        const data = await handler(ctx);
        if (reply.sent) return reply;
        const status = definition.status ?? 200;
        const envelope: ApiEnvelope = { code: status, message: translator(locale)('errors:ok'), data: data ?? null };
        return reply.code(status).send(envelope);
      },
    });
  }
}
