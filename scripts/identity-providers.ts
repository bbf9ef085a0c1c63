// Local stand-ins for the identity providers on loopback (server/testing/identity-providers.ts),
// for the end-to-end run: one per provider on STAND_IN_BASE_PORT and the four ports after it.
import { OAUTH_PLATFORMS } from '../common/social-platforms.ts';
import { startIdentityProviders } from '../server/testing/identity-providers.ts';

const base = Number(process.env.STAND_IN_BASE_PORT ?? 4800);
const ports = Object.fromEntries(OAUTH_PLATFORMS.map((platform, index) => [platform, base + index]));
const providers = await startIdentityProviders({ ports, applePrivateKey: process.env.OAUTH_APPLE_PRIVATE_KEY });
console.log(
  `identity provider stand-ins: ${Object.entries(providers.issuers)
    .map(([p, url]) => `${p} ${url}`)
    .join(', ')}`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void providers.stop().finally(() => process.exit(0)));
}
