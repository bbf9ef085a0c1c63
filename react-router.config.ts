import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  appDirectory: 'app',
  // BUILD_DIR lets several checkouts' builds sit side by side; the server reads the same variable.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
} satisfies Config;
