// What a game's own backend does with the token from Playport.login() (docs/game-sdk.md):
// verify it offline with the portal's published keys. Runnable against a running portal:
//   node docs/examples/verify-game-token.ts http://localhost:3000 <app id> <token>
import { createRemoteJWKSet, jwtVerify } from 'jose';

const [portal = 'http://localhost:3000', appId, token] = process.argv.slice(2);
if (!appId || !token) {
  process.stderr.write('usage: node docs/examples/verify-game-token.ts <portal origin> <app id> <token>\n');
  process.exit(2);
}

// The key set is fetched once and cached; a new key id is fetched when it appears.
const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', portal));
try {
  const { payload } = await jwtVerify(token, keys, { issuer: new URL(portal).origin, audience: `app:${appId}`, algorithms: ['EdDSA'] });
  process.stdout.write(`player ${payload.sub} (${payload.guest ? 'guest' : 'member'}, ${String(payload.nickname)}), valid until ${new Date(payload.exp! * 1000).toISOString()}\n`);
} catch (error) {
  process.stderr.write(`refused: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
