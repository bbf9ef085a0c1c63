import { BackendSecretPanel } from '../features/webhooks/backend-secret.tsx';
import { WebhookSettingsPanel } from '../features/webhooks/webhook-settings.tsx';
import type { Route } from './+types/studio-game-webhooks';

/** /studio/games/:gameId/webhooks: the game's webhook (decision 100) and backend secret (decision 110); the parent route has checked the game is the member's. */
export default function StudioGameWebhooks({ params }: Route.ComponentProps) {
  return (
    <div className="space-y-10">
      <WebhookSettingsPanel gameId={Number(params.gameId)} />
      <BackendSecretPanel gameId={Number(params.gameId)} />
    </div>
  );
}
