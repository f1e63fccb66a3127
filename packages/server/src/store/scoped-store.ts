import { type AgUiEvent, MetadataKey } from "@agui-outbox/core/protocol";
import type { BackgroundRunRecord } from "./background-records";
import type { ContractStore } from "./contract-store";
import type { Occurrence, OccurrenceRef, OutcomeRecord, Settlement, StoredFrame } from "./records";

/**
 * Between an identity and the id it scopes. The id rule (`engine/ids.ts`) bars
 * control characters from ids and identities, so `identity + SEPARATOR + id`
 * reads back one way only.
 */
export const SCOPE_SEPARATOR = "\u001f";

/** The id as the store keeps it for `identity` (as it is for the anonymous identity). */
export function scopedId(identity: string | undefined, id: string): string {
  return identity === undefined ? id : `${identity}${SCOPE_SEPARATOR}${id}`;
}

/** The identity a stored id belongs to; undefined for the anonymous one (no scope). */
export function identityOf(scopedId: string): string | undefined {
  const at = scopedId.indexOf(SCOPE_SEPARATOR);
  return at < 0 ? undefined : scopedId.slice(0, at);
}

/**
 * The store as one identity sees it. Its threadIds, runIds and idempotency
 * keys are stored as `identity␟id`, so another identity's thread, run, key,
 * claim, outcome or background run is simply not there: the same ids name
 * other records. What the caller reads back carries the ids it wrote (cursors
 * included). Without an identity (no `identify`) the store is returned as it is.
 */
export function scopeStore(store: ContractStore, identity: string | undefined): ContractStore {
  if (identity === undefined) return store;
  const prefix = scopedId(identity, "");
  const scope = (id: string) => scopedId(identity, id);
  // Only this identity's records are ever read back, so every id carries the prefix.
  const unscope = (id: string) => (id.startsWith(prefix) ? id.slice(prefix.length) : id);
  const ref = (r: OccurrenceRef): OccurrenceRef => ({
    threadId: scope(r.threadId),
    interruptId: r.interruptId,
  });

  const event = (stored: AgUiEvent): AgUiEvent => {
    const cursor = stored.metadata?.[MetadataKey.stream] as { runId?: unknown } | undefined;
    if (typeof cursor?.runId !== "string") return stored;
    const metadata = {
      ...stored.metadata,
      [MetadataKey.stream]: { ...cursor, runId: unscope(cursor.runId) },
    };
    return { ...stored, metadata } as AgUiEvent;
  };
  const frame = (stored: StoredFrame): StoredFrame => ({ seq: stored.seq, event: event(stored.event) });
  const outcome = (o: OutcomeRecord): OutcomeRecord => ({
    ...o,
    key: unscope(o.key),
    runId: unscope(o.runId),
    threadId: unscope(o.threadId),
    events: o.events.map(event),
  });
  const occurrence = (o: Occurrence): Occurrence => ({
    ...o,
    threadId: unscope(o.threadId),
    claim: o.claim === null ? null : { ...o.claim, runId: unscope(o.claim.runId), key: unscope(o.claim.key) },
    outcome: o.outcome === null ? null : outcome(o.outcome),
  });
  const background = (record: BackgroundRunRecord | undefined): BackgroundRunRecord | undefined =>
    record === undefined
      ? undefined
      : { ...record, runId: unscope(record.runId), threadId: unscope(record.threadId) };
  const settlement = (settle: Settlement | undefined): Settlement | undefined =>
    settle?.kind !== "commit"
      ? settle
      : { ...settle, key: scope(settle.key), finals: settle.finals.map((f) => ({ ...f, ref: ref(f.ref) })) };

  return {
    ...(store.commitWindow === undefined ? {} : { commitWindow: store.commitWindow }),
    now: () => store.now(),
    async reserveKey(record) {
      const reserved = await store.reserveKey({
        ...record,
        key: scope(record.key),
        runId: scope(record.runId),
        threadId: scope(record.threadId),
      });
      return { ...reserved, key: record.key, runId: unscope(reserved.runId), threadId: record.threadId };
    },
    openOccurrences: (occurrences) =>
      store.openOccurrences(occurrences.map((o) => ({ ...o, threadId: scope(o.threadId) }))),
    threadOccurrences: async (threadId) => (await store.threadOccurrences(scope(threadId))).map(occurrence),
    claim: (request) =>
      store.claim({
        ...request,
        runId: scope(request.runId),
        key: scope(request.key),
        claims: request.claims.map((claim) => ({ ...claim, ref: ref(claim.ref) })),
      }),
    beginExecution: (r, runId, leaseMs) => store.beginExecution(ref(r), scope(runId), leaseMs),
    undoExecution: (r, runId) => store.undoExecution(ref(r), scope(runId)),
    storeResult: (r, runId, result, leaseMs) => store.storeResult(ref(r), scope(runId), result, leaseMs),
    renewLeases: (runId, owner, leaseMs) => store.renewLeases(scope(runId), owner, leaseMs),
    sweep: () => store.sweep(),
    async beginRun(runId, threadId, owner, leaseMs) {
      const begun = await store.beginRun(scope(runId), scope(threadId), owner, leaseMs);
      return begun === undefined ? undefined : { ...begun, runId, threadId };
    },
    async append(runId, owner, appended, settle) {
      const stored = await store.append(scope(runId), owner, appended, settlement(settle));
      return stored === undefined ? undefined : frame(stored);
    },
    async appendMany(runId, owner, events, settle) {
      const stored = await store.appendMany(scope(runId), owner, events, settlement(settle));
      return stored?.map(frame);
    },
    frames: async (runId, afterSeq) => (await store.frames(scope(runId), afterSeq)).map(frame),
    // The engine closes its own orphans through the unscoped store; this view never sees them.
    openRunsOf: async () => [],
    async run(runId) {
      const found = await store.run(scope(runId));
      return found === undefined
        ? undefined
        : {
            ...found,
            runId,
            threadId: unscope(found.threadId),
            terminal: found.terminal && event(found.terminal),
          };
    },
    watch: (runId, wake) => store.watch(scope(runId), (frames) => wake(frames?.map(frame))),
    createBackground: (record) =>
      store.createBackground({ ...record, runId: scope(record.runId), threadId: scope(record.threadId) }),
    background: async (runId) => background(await store.background(scope(runId))),
    async backgroundByToken(token) {
      const found = await store.backgroundByToken(token);
      // A token is a capability, but only within its identity.
      return found?.runId.startsWith(prefix) ? background(found) : undefined;
    },
    updateBackground: (record) =>
      store.updateBackground({ ...record, runId: scope(record.runId), threadId: scope(record.threadId) }),
    renewBackgroundPoll: (runId, pollId, leaseMs) => store.renewBackgroundPoll(scope(runId), pollId, leaseMs),
    prune: (windows) => store.prune(windows),
    close: () => store.close(),
  };
}
