import { BatchDelivery } from "./batch-delivery";
import type { DeliveryContext } from "./delivery-options";
import { DeliveryRun } from "./delivery-run";
import { DeliveryTransport } from "./delivery-transport";

/*
 * The sending half of the delivery, a chunk of its own in an app's build: the
 * transport, the batches and the run of one delivery, with the verdict rules
 * they classify by. Only the tab that sends needs it (every other tab hands its
 * answers over), and nothing is sent before it is loaded, so no answer from a
 * server ever waits for it. Loaded by load-sender.ts.
 */

/** What the engine hands the sending half: its options, its entries, its activation, its schedule. */
export interface SenderInit extends DeliveryContext {
  readonly schedule: (key: string) => void;
}

/** The parts that send, built once the sending code is loaded. */
export interface Sender {
  readonly transport: DeliveryTransport;
  readonly batches: BatchDelivery;
  readonly runner: DeliveryRun;
}

export function createSender(init: SenderInit): Sender {
  const transport = new DeliveryTransport(init);
  const batches = new BatchDelivery(init.book, init.options.threads);
  const runner = new DeliveryRun({ ...init, transport, batches });
  return { transport, batches, runner };
}
