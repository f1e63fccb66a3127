import { BatchDelivery } from "./batch-delivery";
import type { DeliveryContext } from "./delivery-options";
import { DeliveryRun } from "./delivery-run";
import { DeliveryTransport } from "./delivery-transport";

/* The sending half: transport, batches and run, with their rules; a chunk of its own (load-sender.ts). */

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
