import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

const PASSWORD = 'terms-journey-pass-1';

test.describe("a studio's revenue terms in the Console (decision 149)", () => {
  test('an operator reads a studio’s share on its member page, is told a start in the past is refused, and sets new terms with a reason', async ({
    page,
    request,
    baseURL,
  }) => {
    const studioName = uniqueUsername('terms');
    const studio = await newMember(request, studioName, PASSWORD);
    expect(
      (await call(request, 'PUT', '/studio/profile/', { token: studio.token, body: { studioName: 'Terms Works', contactEmail: 'team@terms.test' } })).status,
    ).toBe(200);
    const operator = await newMember(request, uniqueUsername('oper'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);

    await page.goto(`/console/members?q=${studioName}&member=${studio.userInfo.uid}`);
    await hydrated(page);
    const terms = page.getByTestId('studio-terms');
    await expect(terms.getByRole('heading', { name: 'Revenue terms of Terms Works' })).toBeVisible();
    await expect(terms.getByTestId('studio-terms-current')).toContainText('Share in force now: 70 %');

    await terms.getByLabel("Studio's share (%)").fill('75.5');
    await terms.getByLabel('From (UTC)').fill('2020-01-01');
    await terms.getByLabel('Reason').fill('Launch partner');
    await terms.getByRole('button', { name: 'Set terms' }).click();
    await expect(terms.getByText('The start cannot be in the past: orders already paid keep their share.')).toBeVisible();

    await terms.getByLabel('From (UTC)').fill(new Date().toISOString().slice(0, 10));
    await terms.getByRole('button', { name: 'Set terms' }).click();
    await expect(terms.getByTestId('studio-terms-current')).toContainText('Share in force now: 75.5 %');
    await expect(terms.getByTestId('studio-terms-row')).toHaveCount(1);
    await expect(terms.getByTestId('studio-terms-row')).toContainText('Launch partner');

    // A member without a studio profile has no terms section.
    await page.goto(`/console/members?q=${operator.userInfo.uid}&member=${operator.userInfo.uid}`);
    await hydrated(page);
    await expect(page.getByTestId('member-detail')).toBeVisible();
    await expect(page.getByTestId('studio-terms')).toHaveCount(0);
  });
});
