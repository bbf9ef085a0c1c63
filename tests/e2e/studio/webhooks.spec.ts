import { verifyWebhook } from '../../../docs/examples/verify-webhook.ts';
import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { giveCatalogueGameToNewStudio } from '../../support/run-database.ts';
import { startWebhookBackend } from '../../support/studio.ts';
import { afterDebounce } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

test.describe('Studio: webhooks (decision 100)', () => {
  test('a developer sets the webhook URL, sees the secret once, sends a test event and finds it delivered in the log @db', async ({
    page,
    context,
    baseURL,
    request,
    problems,
  }) => {
    // The game's backend: a local receiver that records what arrives; the log shows its answer.
    const { received, url, close: closeBackend } = await startWebhookBackend('thanks');

    const member = await newMember(request, uniqueUsername('hook'), 'Harbour-Lantern-Tricky-9');
    // Creating a game in the Studio is its own journey: here a catalogue game is given to the developer.
    const gameId = await giveCatalogueGameToNewStudio(member.userInfo.uid, { name: 'Hook Studio', contactEmail: 'dev@hook.test' });

    try {
      await useSession(context, baseURL!, member.token);
      await page.goto(`/studio/games/${gameId}/webhooks`);
      await hydrated(page);
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
      await expect(page.getByTestId('webhook-test')).toBeDisabled();
      // Without a URL, the page says events are not queued for later.
      await expect(page.getByTestId('webhook-not-queued')).toContainText('not queued, and are not sent later');

      // A URL that is not http(s) is refused with the reason, by the field.
      problems.allow(/status of 422 .*\/serve\/api\/studio\/games\/\d+\/webhook$/);
      await page.getByLabel('Webhook URL').fill('ftp://example.com/hook');
      await page.getByTestId('webhook-save').click();
      await expect(page.getByTestId('field-error')).toHaveText('Use an https URL (http only to this machine in development).');

      // A press within 500 ms of the last one is ignored (the pending-action debounce).
      await afterDebounce(page);
      await page.getByLabel('Webhook URL').fill(url);
      await page.getByTestId('webhook-save').click();
      await expect(page.getByTestId('toast').filter({ hasText: 'The webhook URL is saved.' })).toBeVisible();
      await expect(page.getByTestId('webhook-not-queued')).toHaveCount(0);
      const secret = (await page.getByTestId('webhook-secret').textContent())!;
      expect(secret).toMatch(/^whsec_/);

      await afterDebounce(page);
      await page.getByTestId('webhook-test').click();
      await expect(page.getByTestId('toast').filter({ hasText: 'Test event sent: Delivered.' })).toBeVisible();
      const delivery = page.getByTestId('webhook-delivery').first();
      await expect(delivery).toContainText('test');
      await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Delivered');
      await expect(delivery).toContainText('Last answer: 200');
      await expect(delivery).toContainText('thanks');

      // What the backend received is signed with the secret the page showed.
      expect(received).toHaveLength(1);
      expect(verifyWebhook(secret, received[0]!.signature, received[0]!.body)).toBe(true);
      expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'test', game: { id: gameId } });

      // The secret is shown once: after a reload only that one exists.
      await page.reload();
      await hydrated(page);
      await expect(page.getByTestId('webhook-delivery')).toHaveCount(1);
      await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
      await expect(page.getByLabel('Webhook URL')).toHaveValue(url);
    } finally {
      await closeBackend();
    }
  });
});
