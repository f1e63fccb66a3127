import { BatchDelivery } from "./batch-delivery";
import type { DeliveryEngineOptions } from "./delivery-options";
import { DeliveryRun } from "./delivery-run";
import { DeliveryTransport } from "./delivery-transport";
import type { EntryBook } from "./entry-book";

/*
 * The sending half of the delivery, a chunk of its own in an app's build: the
 * transport, the batches and the run of one delivery, with the verdict rules
 * they classify by. Only the tab that sends needs it (every other tab hands its
 * answers over), and nothing is sent before it is loaded, so no answer from a
 * server ever waits for it. Loaded by load-sender.ts.
 */

/** What the engine hands the sending half: its options, its entries, and its activation. */
export interface SenderInit {
  readonly options: DeliveryEngineOptions;
  readonly book: EntryBook;
  /** False once delivery stopped. */
  readonly active: () => boolean;
  /** Aborted when delivery stops. */
  readonly abortSignal: () => AbortSignal;
  readonly schedule: (key: string) => void;
}

/** The parts that send, built once the sending code is loaded. */
export interface Sender {
  readonly transport: DeliveryTransport;
  readonly batches: BatchDelivery;
  readonly runner: DeliveryRun;
}

export function createSender(init: SenderInit): Sender {
  const { options, book } = init;
  const transport = new DeliveryTransport({
    book,
    http: options.http,
    threads: options.threads,
    deps: options.deps,
    serverKind: options.serverKind,
    hydrate: options.hydrate,
    stallTimeoutMs: options.stallTimeoutMs,
    maxEventBytes: options.maxEventBytes,
    abortSignal: init.abortSignal,
    active: init.active,
    onContradiction: (reason) => options.onKindContradicted?.(reason),
  });
  const batches = new BatchDelivery(book, transport);
  const runner = new DeliveryRun({ ...init, transport, batches });
  return { transport, batches, runner };
}
