import type { TabEnvelope } from "./tab-message";

/** `parseTabEnvelope`: the envelope, or `undefined` for anything that is not one of ours. */
export type TabEnvelopeParser = (data: unknown) => TabEnvelope | undefined;

let loading: Promise<TabEnvelopeParser> | undefined;
let loaded: TabEnvelopeParser | undefined;

/**
 * The tab messages' schemas (an outbox entry's, an AG-UI event's), loaded the first
 * time another tab speaks: a tab alone never downloads them. A failed load is not
 * cached: the next message tries again.
 */
export function loadTabEnvelopeParser(): Promise<TabEnvelopeParser> {
  loading ??= import("./tab-message").then(
    (module) => {
      loaded = module.parseTabEnvelope;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The parser once loaded, so messages after the first are read in the turn they arrive. */
export function loadedTabEnvelopeParser(): TabEnvelopeParser | undefined {
  return loaded;
}
