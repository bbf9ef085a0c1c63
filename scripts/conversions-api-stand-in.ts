// A local stand-in for Meta's Conversions API on loopback (server/testing/conversions-api-stand-in.ts),
// for the end-to-end run: on CONVERSIONS_API_PORT; GET /received lists the events it was sent.
import { startConversionsApiStandIn } from '../server/testing/conversions-api-stand-in.ts';

const standIn = await startConversionsApiStandIn(Number(process.env.CONVERSIONS_API_PORT ?? 4810));
console.log(`conversions API stand-in: ${standIn.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void standIn.stop().finally(() => process.exit(0)));
}
