import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has safe development defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, productName: 'Playport', databaseUrl: 'file:data/playport.sqlite', isProduction: false, secureCookies: true });
    expect(config.redisUrl).toBeUndefined();
  });

  it('names every bad variable in one message', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_ORIGIN: 'ftp://x' })).toThrowError(
      expect.objectContaining({ message: expect.stringMatching(/PORT[\s\S]*PUBLIC_ORIGIN[\s\S]*DATABASE_URL|PORT[\s\S]*DATABASE_URL/) }),
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('DATABASE_URL: must be file:<path> for SQLite or postgres://… for PostgreSQL');
    }
  });

  it('refuses to run in production with the development secret', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrowError(/APP_SECRET: the development secret must not be used in production/);
    expect(loadConfig({ APP_ENV: 'production', APP_SECRET: 'x'.repeat(40) }).isProduction).toBe(true);
  });

  it('refuses the published development secret when the server is reachable by others, naming APP_SECRET', () => {
    for (const env of [{ HOST: '0.0.0.0' }, { HOST: '::' }, { HOST: '192.168.1.20' }, { HOST: 'portal.example' }, { PUBLIC_ORIGIN: 'https://play.example' }]) {
      expect(() => loadConfig({ ...env, WHATSAPP_SENDER: 'off' }), JSON.stringify(env)).toThrowError(
        /APP_SECRET: the published development secret is refused when the server is reachable by others \((HOST=\S+ listens beyond loopback|PUBLIC_ORIGIN=https:\/\/play\.example is https)\)/,
      );
    }
    const secret = 'x'.repeat(40);
    expect(loadConfig({ HOST: '0.0.0.0', APP_SECRET: secret }).host).toBe('0.0.0.0');
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://play.example', APP_SECRET: secret }).publicOrigin).toBe('https://play.example');
    // On loopback over http the development defaults stay, as tests and `npm start` use them.
    for (const HOST of ['localhost', '127.0.0.1', '127.8.9.10', '::1', '[::1]']) expect(loadConfig({ HOST }).appSecret.length, HOST).toBeGreaterThanOrEqual(32);
  });

  it('refuses the development WhatsApp inbox when the server is reachable by others, naming WHATSAPP_SENDER, and defaults to no sender there', () => {
    const secret = 'x'.repeat(40);
    expect(() => loadConfig({ HOST: '0.0.0.0', APP_SECRET: secret, WHATSAPP_SENDER: 'development' })).toThrowError(
      /WHATSAPP_SENDER: development shows every sign-in code at \/dev\/whatsapp-inbox; it is refused/,
    );
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'https://play.example', APP_SECRET: secret, WHATSAPP_SENDER: 'development' })).toThrowError(
      /WHATSAPP_SENDER: development/,
    );
    expect(loadConfig({ HOST: '0.0.0.0', APP_SECRET: secret }).social.whatsapp).toEqual({ sender: 'off' });
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://play.example', APP_SECRET: secret }).social.whatsapp).toEqual({ sender: 'off' });
    expect(loadConfig({ HOST: '127.0.0.1' }).social.whatsapp).toEqual({ sender: 'development' });
    expect(loadConfig({ HOST: '127.0.0.1', WHATSAPP_SENDER: 'development' }).social.whatsapp).toEqual({ sender: 'development' });
  });

  it('refuses a DATABASE_URL that does not parse at once, naming it', () => {
    for (const bad of ['postgres://u@h:notaport/db', 'postgres://u:p@h:99999/db', 'postgresql://u@h:54 32/db', 'file:']) {
      expect(() => loadConfig({ DATABASE_URL: bad }), bad).toThrowError(/DATABASE_URL: /);
    }
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h:notaport/db' })).toThrowError(/DATABASE_URL: is not a valid URL/);
    for (const good of [
      'postgres://u@h:5432/db',
      'postgresql://u:p%40ss@db.internal/db',
      'postgres://postgres@127.0.0.1:5432/test',
      'file:data/x.sqlite',
      'file::memory:',
    ]) {
      expect(loadConfig({ DATABASE_URL: good }).databaseUrl, good).toBe(good);
    }
  });

  it('takes the public origin from PORT when PUBLIC_ORIGIN is left out, so game tokens and the sandbox webhook name the right port', () => {
    const config = loadConfig({ PORT: '4321' });
    expect(config.publicOrigin).toBe('http://localhost:4321');
    expect(config.payments).toMatchObject({ provider: 'sandbox', webhookUrl: 'http://localhost:4321/serve/api/payment/xsolla/webhook/' });
    expect(config.webauthn.origins).toEqual(['http://localhost:4321']);
    expect(loadConfig({}).publicOrigin).toBe('http://localhost:3000');
    expect(loadConfig({ PORT: '4321', PUBLIC_ORIGIN: 'http://localhost:8080' }).publicOrigin).toBe('http://localhost:8080');
  });

  it('serves games on the next port below games.localhost by default, and refuses a games origin on the portal’s site, a path or an IP address', () => {
    expect(loadConfig({ PORT: '4321' }).games).toEqual({ port: 4322, origin: 'http://games.localhost:4322' });
    expect(loadConfig({ PORT: '0' }).games.port).toBe(0);
    const secret = 'a-random-secret-of-more-than-32-characters';
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://playport.example', GAMES_ORIGIN: 'https://playport-games.example', GAMES_PORT: '8081', APP_SECRET: secret }).games,
    ).toEqual({
      port: 8081,
      origin: 'https://playport-games.example',
    });
    expect(refusalOf({ PUBLIC_ORIGIN: 'https://playport.example', GAMES_ORIGIN: 'https://games.playport.example' })).toMatch(
      /GAMES_ORIGIN: shares its site with PUBLIC_ORIGIN/,
    );
    expect(refusalOf({ PUBLIC_ORIGIN: 'https://www.playport.example', GAMES_ORIGIN: 'https://games.playport.example' })).toMatch(
      /GAMES_ORIGIN: shares its site/,
    );
    expect(refusalOf({ GAMES_ORIGIN: 'https://games.example.net/play' })).toMatch(/GAMES_ORIGIN: must be an origin, without a path/);
    expect(refusalOf({ GAMES_ORIGIN: 'http://127.0.0.1:3001' })).toMatch(/GAMES_ORIGIN: must be a host name/);
    expect(refusalOf({ PORT: '3000', GAMES_PORT: '3000' })).toMatch(/GAMES_PORT: must differ from PORT/);
  });

  it('refuses a port out of range or not a number, naming PORT or GAMES_PORT, and a PORT that leaves no games port after it', () => {
    for (const [env, variable] of [
      [{ PORT: '99999' }, 'PORT'],
      [{ PORT: '-1' }, 'PORT'],
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '3000.5' }, 'PORT'],
      [{ GAMES_PORT: '99999' }, 'GAMES_PORT'],
      [{ GAMES_PORT: 'games' }, 'GAMES_PORT'],
      [{ PORT: '99999', GAMES_PORT: '3001' }, 'PORT'],
    ] as const) {
      let thrown: unknown;
      try {
        loadConfig(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message, JSON.stringify(env)).toBe(`Invalid configuration:\n  ${variable}: must be a port number from 0 to 65535`);
    }
    expect(refusalOf({ PORT: '65535' })).toBe('Invalid configuration:\n  GAMES_PORT: is unset and PORT + 1 (65536) is no port: set GAMES_PORT');
    expect(loadConfig({ PORT: '65535', GAMES_PORT: '65534' }).games.port).toBe(65534);
  });

  it('stops the server on a port out of range with the message alone and status 1, no stack trace', () => {
    // Starting Node on the server's code takes seconds: one run, the other variables are covered above.
    const env: Record<string, string | undefined> = { ...process.env, APP_ENV: 'test', NODE_ENV: 'production', PORT: '99999' };
    delete env.GAMES_PORT;
    delete env.GAMES_ORIGIN;
    const run = spawnSync(process.execPath, [resolve(import.meta.dirname, 'main.ts')], { env, encoding: 'utf8', timeout: 50_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toBe('Invalid configuration:\n  PORT: must be a port number from 0 to 65535\n');
    expect(run.stdout).toBe('');
  }, 60_000);

  it('serves previews on a site of their own, apart from the portal and the published games (decision 108)', () => {
    expect(loadConfig({ PORT: '4321' }).previewsOrigin).toBe('http://previews.localhost:4322');
    const secret = 'a-random-secret-of-more-than-32-characters';
    const deployed = { APP_ENV: 'production', APP_SECRET: secret, PUBLIC_ORIGIN: 'https://playport.example', GAMES_ORIGIN: 'https://playport-games.example' };
    expect(loadConfig({ ...deployed, PREVIEWS_ORIGIN: 'https://playport-previews.example' }).previewsOrigin).toBe('https://playport-previews.example');
    expect(refusalOf(deployed)).toMatch(/PREVIEWS_ORIGIN: is required with GAMES_ORIGIN in production/);
    expect(refusalOf({ ...deployed, PREVIEWS_ORIGIN: 'https://previews.playport-games.example' })).toMatch(
      /PREVIEWS_ORIGIN: shares its site with GAMES_ORIGIN/,
    );
    expect(refusalOf({ ...deployed, PREVIEWS_ORIGIN: 'https://previews.playport.example' })).toMatch(/PREVIEWS_ORIGIN: shares its site with PUBLIC_ORIGIN/);
    expect(refusalOf({ PREVIEWS_ORIGIN: 'http://previews.games.localhost:3001' })).toMatch(/PREVIEWS_ORIGIN: shares its site with GAMES_ORIGIN/);
    expect(refusalOf({ PREVIEWS_ORIGIN: 'https://previews.example.org/qa' })).toMatch(/PREVIEWS_ORIGIN: must be an origin, without a path/);
    expect(refusalOf({ PREVIEWS_ORIGIN: 'http://127.0.0.2:3001' })).toMatch(/PREVIEWS_ORIGIN: must be a host name/);
  });

  it('rejects a short secret and a bad Redis URL', () => {
    expect(() => loadConfig({ APP_SECRET: 'short' })).toThrowError(/APP_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrowError(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it("takes a proxy count or the proxies' addresses, and refuses a bare true that would trust every hop", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toEqual(['loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrowError(/TRUST_PROXY: true would trust every X-Forwarded-For hop/);
    for (const bad of ['yes', '11', '10.0.0.0/33', 'proxy.example', '1.2.3.4/8/2']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrowError(/TRUST_PROXY: must be false, a number of proxies/);
    }
  });

  it('drops Secure on cookies only for plain http on another host', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://portal.test:8080' }).secureCookies).toBe(false);
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://portal.test', APP_SECRET: 'x'.repeat(40) }).secureCookies).toBe(true);
  });

  describe('social sign-in', () => {
    it('offers a provider only with all its credentials, and names the missing one', () => {
      expect(loadConfig({}).social.oauth).toEqual({});
      expect(loadConfig({ OAUTH_GOOGLE_CLIENT_ID: 'id', OAUTH_GOOGLE_CLIENT_SECRET: 'secret' }).social.oauth).toEqual({
        google: { clientId: 'id', clientSecret: 'secret', apple: null, issuerUrl: null },
      });
      expect(() => loadConfig({ OAUTH_DISCORD_CLIENT_ID: 'id' })).toThrow(
        /OAUTH_DISCORD_CLIENT_SECRET: discord sign-in needs OAUTH_DISCORD_CLIENT_ID, OAUTH_DISCORD_CLIENT_SECRET together/,
      );
      expect(() => loadConfig({ OAUTH_APPLE_CLIENT_ID: 'id', OAUTH_APPLE_TEAM_ID: 'team' })).toThrow(/OAUTH_APPLE_KEY_ID: apple sign-in needs/);
      expect(() => loadConfig({ OAUTH_X_CLIENT_ID: 'id', OAUTH_X_CLIENT_SECRET: 's', OAUTH_X_ISSUER_URL: 'ftp://x' })).toThrow(
        /OAUTH_X_ISSUER_URL: must be an http\(s\) URL/,
      );
    });

    it("takes Apple's key with its newlines written as \\n", () => {
      const config = loadConfig({
        OAUTH_APPLE_CLIENT_ID: 'com.example',
        OAUTH_APPLE_TEAM_ID: 'T',
        OAUTH_APPLE_KEY_ID: 'K',
        OAUTH_APPLE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nAAA\\n-----END PRIVATE KEY-----',
      });
      expect(config.social.oauth.apple?.apple?.privateKey).toBe('-----BEGIN PRIVATE KEY-----\nAAA\n-----END PRIVATE KEY-----');
    });

    it('sends WhatsApp codes through the Cloud API when it has credentials, to the development inbox otherwise, and never there in production', () => {
      expect(loadConfig({}).social.whatsapp).toEqual({ sender: 'development' });
      expect(loadConfig({ APP_ENV: 'production', APP_SECRET: 'x'.repeat(40) }).social.whatsapp).toEqual({ sender: 'off' });
      expect(loadConfig({ WHATSAPP_PHONE_NUMBER_ID: '123', WHATSAPP_ACCESS_TOKEN: 'tok' }).social.whatsapp).toMatchObject({
        sender: 'cloud',
        phoneNumberId: '123',
        template: 'sign_in_code',
      });
      expect(() => loadConfig({ WHATSAPP_SENDER: 'cloud' })).toThrow(/WHATSAPP_SENDER: cloud needs/);
      expect(() => loadConfig({ APP_ENV: 'production', APP_SECRET: 'x'.repeat(40), WHATSAPP_SENDER: 'development' })).toThrow(/refused in production/);
    });
  });

  it('reads object storage (decision 150) only with STORAGE_URL, and names every missing or bad part without printing the secret', () => {
    expect(loadConfig({}).objectStorage).toBeNull();
    const bucket = {
      STORAGE_URL: 's3://playport-files/prod',
      S3_ENDPOINT: 'http://127.0.0.1:9400/',
      S3_ACCESS_KEY_ID: 'key-id',
      S3_SECRET_ACCESS_KEY: 'very-secret-value',
    };
    expect(loadConfig(bucket).objectStorage).toEqual({
      bucket: 'playport-files',
      prefix: 'prod/',
      endpoint: 'http://127.0.0.1:9400',
      region: 'us-east-1',
      accessKeyId: 'key-id',
      secretAccessKey: 'very-secret-value',
      forcePathStyle: true,
      publicUrl: null,
    });
    // AWS itself: no endpoint, virtual-hosted addresses; a CDN for the uploads.
    expect(
      loadConfig({ ...bucket, STORAGE_URL: 's3://playport-files', S3_ENDPOINT: '', S3_REGION: 'eu-west-1', STORAGE_PUBLIC_URL: 'https://cdn.example.com/u' })
        .objectStorage,
    ).toMatchObject({ prefix: '', endpoint: null, region: 'eu-west-1', forcePathStyle: false, publicUrl: 'https://cdn.example.com/u/' });
    expect(loadConfig({ ...bucket, S3_FORCE_PATH_STYLE: 'false' }).objectStorage?.forcePathStyle).toBe(false);
    for (const [env, message] of [
      [{ ...bucket, STORAGE_URL: 'https://playport-files/prod' }, 'STORAGE_URL: must be s3://bucket'],
      [{ ...bucket, STORAGE_URL: 's3://Playport_Files' }, 'is not a valid S3 bucket name'],
      [{ ...bucket, STORAGE_URL: 's3://playport-files/../etc' }, 'the prefix must be plain path segments'],
      [{ ...bucket, S3_ACCESS_KEY_ID: '' }, 'S3_ACCESS_KEY_ID: is required with STORAGE_URL'],
      [{ ...bucket, S3_SECRET_ACCESS_KEY: '' }, 'S3_SECRET_ACCESS_KEY: is required with STORAGE_URL'],
      [{ ...bucket, S3_ENDPOINT: '127.0.0.1:9400' }, 'S3_ENDPOINT: must be http(s)://host[:port]'],
      [{ ...bucket, S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
      [{ ...bucket, STORAGE_PUBLIC_URL: 'cdn.example.com' }, 'STORAGE_PUBLIC_URL: must be an http(s) address'],
      [{ S3_ACCESS_KEY_ID: 'key-id' }, 'S3_ACCESS_KEY_ID: is only read with STORAGE_URL'],
    ] as const) {
      const message_ = refusalOf(env);
      expect(message_, JSON.stringify(env)).toContain(message);
      expect(message_).not.toContain('very-secret-value');
    }
  });
});

/** The message a call throws, or '' when it does not throw. */
function catchMessage(run: () => unknown): string {
  try {
    run();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/** What loadConfig says of an environment it refuses. */
function refusalOf(env: Record<string, string>): string {
  return catchMessage(() => loadConfig(env));
}
