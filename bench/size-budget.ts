/**
 * The most core + react may weigh, minified and gzipped, with their dependencies
 * (see measure-bundle.ts). `npm test` fails above it, and when the pair is not
 * smaller than @ag-ui/client.
 *
 * The target is 30 kB; it is not met. Measured: 49.9 kB (from 69.3 kB before zod/mini
 * and the verdict prose left the bundle), next to 84.4 kB for @ag-ui/client. What is
 * left (`BUNDLE_DEPS=1 npx tsx bench/bundle-size.ts`): our own code 32.3 kB (core's
 * delivery engine, background runs, tab coordination, IndexedDB store, stream reader,
 * classifier and client about 26 kB; the React hooks and default card about 6 kB),
 * zod/mini 8.8 kB (wire validation), @cfworker/json-schema 5.9 kB (edited arguments
 * checked against the tool's JSON Schema), eventsource-parser 1.3 kB, idb 1.0 kB.
 * Reaching 30 kB would take dropping validation or features, so the budget is the
 * measured size with about 2% headroom: any real growth fails the test.
 *
 * Since then the performance work (events decoded a chunk at a time, the hand check
 * of delta events, the incrementally sorted outbox, a child abort signal per request)
 * added about 1 kB: 51,048 bytes measured, so the budget moves once, to 52,000.
 *
 * Storage that cannot lose or resurrect an answer (compare-and-set commits, the
 * IndexedDB store reopening after another tab's upgrade, the v2 upgrade that moves
 * background runs into their own object store) adds to that: the budget moves to 53,000.
 *
 * The client's orchestration split into explicit machines (lifecycle, server kind,
 * leadership, tab sync, a pure delivery step, an error sink) added about 1.5 kB
 * (51,129 → 52,600 bytes on its own); with the storage work 54,491. Batched
 * resumes, the `held` and `stalled` states, counters on the entry, the server kind
 * that stays unknown until known, its re-detection, the storage brakes and the
 * waits that survive a jumping wall clock bring it to 57,016: the budget moves to 57,500.
 */
export const SIZE_BUDGET_GZIP_BYTES = 57_500;
