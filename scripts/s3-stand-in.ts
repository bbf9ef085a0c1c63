// The local S3-compatible stand-in (server/testing/s3-stand-in.ts, decision 150) on its own, for
// development and the end-to-end run: `node scripts/s3-stand-in.ts --port 9400 --dir data/s3
// [--bucket playport]`, or S3_STAND_IN_PORT, S3_STAND_IN_DIR, S3_STAND_IN_BUCKET. It prints the
// variables a server needs to use it; the objects stay in the folder between runs.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startS3StandIn } from '../server/testing/s3-stand-in.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, dir: { type: 'string' }, bucket: { type: 'string' } } });
const port = Number(values.port ?? process.env.S3_STAND_IN_PORT ?? 9400);
const directory = resolve(values.dir ?? process.env.S3_STAND_IN_DIR ?? 'data/s3');
const bucket = values.bucket ?? process.env.S3_STAND_IN_BUCKET ?? 'playport';
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('usage: node scripts/s3-stand-in.ts --port 9400 --dir data/s3 [--bucket playport]');
  process.exit(2);
}
const standIn = await startS3StandIn({ port, directory, bucket });
console.log(`S3 stand-in: ${standIn.endpoint}, bucket ${bucket}, objects in ${directory}. For the server:`);
for (const [name, value] of Object.entries(standIn.env)) console.log(`${name}=${value}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void standIn.stop().finally(() => process.exit(0)));
}
