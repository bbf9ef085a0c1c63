// What a game's own backend does to record a score or unlock an achievement for a player
// (docs/game-sdk.md, "Recording from your backend"): sign the exact body with the game's secret
// and post it. Runnable against a running portal (Node 24, nothing to install):
//   PLAYPORT_GAME_SECRET=pps_… node docs/examples/record-from-backend.ts http://localhost:3000 <app id> score <uid> <board> <score>
//   PLAYPORT_GAME_SECRET=pps_… node docs/examples/record-from-backend.ts http://localhost:3000 <app id> unlock <uid> <achievement>
// The secret comes from the Studio (your game → Webhooks → Backend secret) or `npm run content -- game-secret <slug>`;
// keep it on the server, never in the game.
import { createHmac } from 'node:crypto';

/** The two headers of a signed call: the time in Unix seconds, and HMAC-SHA256 over "{timestamp}.{body}" in hex. */
export function signedHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { 'content-type': 'application/json', 'playport-timestamp': timestamp, 'playport-signature': `v1=${signature}` };
}

/** Posts one signed call; answers the envelope's data, or throws with the portal's error code and reason. */
export async function recordFromBackend(portal: string, appId: number, secret: string, call: { score: { uid: number; board: string; score: number } } | { unlock: { uid: number; achievement: string } }): Promise<unknown> {
  const [path, payload] = 'score' in call ? ['scores', call.score] : ['achievements', call.unlock];
  // The body is signed exactly as sent: build the text once and send that text.
  const body = JSON.stringify(payload);
  const response = await fetch(new URL(`/serve/api/game/backend/${appId}/${path}`, portal), { method: 'POST', headers: signedHeaders(secret, body), body });
  const answer = (await response.json()) as { data: unknown; error?: string; message: string };
  if (!response.ok) throw new Error(`${response.status} ${answer.error ?? ''}: ${answer.message} ${JSON.stringify(answer.data)}`);
  return answer.data;
}

if (import.meta.main) {
  const [portal, appId, kind, uid, id, score] = process.argv.slice(2);
  const secret = process.env.PLAYPORT_GAME_SECRET;
  if (!portal || !appId || !secret || !uid || !id || (kind !== 'score' && kind !== 'unlock') || (kind === 'score' && score === undefined)) {
    process.stderr.write('usage: PLAYPORT_GAME_SECRET=… node docs/examples/record-from-backend.ts <portal origin> <app id> score <uid> <board> <score> | unlock <uid> <achievement>\n');
    process.exit(2);
  }
  try {
    const call =
      kind === 'score' ? { score: { uid: Number(uid), board: id, score: Number(score) } } : { unlock: { uid: Number(uid), achievement: id } };
    process.stdout.write(`${JSON.stringify(await recordFromBackend(portal, Number(appId), secret, call))}\n`);
  } catch (error) {
    process.stderr.write(`refused: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
