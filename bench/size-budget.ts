/**
 * The most an app may pay for the SDK, minified and gzipped with its dependencies
 * (React, react-dom and @tanstack/react-query excluded; see measure-bundle.ts), in
 * both rolldown and esbuild, for what the page loads up front (the JSON-Schema
 * validator is loaded on demand and reported apart). `npm test` fails above either
 * (packages/core/test/size/bundle-size.test.ts); bench/RESULTS.md has the figures.
 */
export const SIZE_TARGETS = {
  /** `createOutboxClient`, `OutboxProvider`, `useThread`, `useApproval`, `DefaultApprovalCard`. */
  typicalApp: 38_000,
  /** `createOutboxClient` alone. */
  clientOnly: 30_000,
} as const;

/**
 * What the test enforces while a target is not met: the larger bundler's measured
 * size with about 1% headroom, so any growth fails.
 */
export const SIZE_BUDGETS = {
  typicalApp: 46_600,
  clientOnly: 40_700,
} as const satisfies Record<keyof typeof SIZE_TARGETS, number>;
