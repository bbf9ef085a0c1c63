import { WebhookSettingsPanel } from '../features/webhooks/webhook-settings.tsx';
import type { Route } from './+types/studio-game-webhooks';

/** /studio/games/:gameId/webhooks: the game's webhook (decision 100); the parent route has checked the game is the member's. */
export default function StudioGameWebhooks({ params }: Route.ComponentProps) {
  return <WebhookSettingsPanel gameId={Number(params.gameId)} />;
}
