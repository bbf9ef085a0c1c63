import type { Page } from '@playwright/test';

/** Waits until React has hydrated the page (its DOM nodes carry React's keys), so controls respond. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('main') ?? document.body;
    return Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
}
