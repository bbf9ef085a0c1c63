// The package ships JavaScript with JSDoc only; these are the parts tests/pages/observatory.ts uses.
declare module '@mdn/mdn-http-observatory/src/retriever/retriever.js' {
  export function retrieve(
    hostname: string,
    options: { httpPort?: string; path?: string; headers?: string[] },
  ): Promise<{ responses: { auto: { status: number } | null } }>;
}
declare module '@mdn/mdn-http-observatory/src/constants.js' {
  export const ALL_TESTS: Array<(requests: unknown) => { result: string; pass: boolean; constructor: { name: string } }>;
}
declare module '@mdn/mdn-http-observatory/src/grader/charts.js' {
  export const MINIMUM_SCORE_FOR_EXTRA_CREDIT: number;
}
declare module '@mdn/mdn-http-observatory/src/grader/grader.js' {
  export function getGradeForScore(score: number): { score: number; grade: string };
  export function getScoreModifier(expectation: string): number;
}
declare module '@mdn/mdn-http-observatory/src/analyzer/tests/redirection.js' {
  export function redirectionTest(requests: unknown): unknown;
}
declare module '@mdn/mdn-http-observatory/src/analyzer/tests/strict-transport-security.js' {
  export function strictTransportSecurityTest(requests: unknown): unknown;
}
