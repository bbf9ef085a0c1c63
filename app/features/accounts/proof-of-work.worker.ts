// The guest sign-in's proof of work (decision 054), solved off the page's main thread: thousands of
// hashes that would otherwise come between a first visitor's taps and paints on a slow phone.
import { solve } from '#common/proof-of-work.ts';

addEventListener('message', (event: MessageEvent<{ challenge: string; difficulty: number }>) => {
  const { challenge, difficulty } = event.data;
  // In a worker nothing waits for a pause between slices.
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker answers the page that started it; there is no origin to name
  void solve(challenge, difficulty, () => Promise.resolve(), 1 << 16).then((nonce) => postMessage(nonce));
});
