/*
 * The sending half of the delivery, a chunk of its own in an app's build: the
 * transport, the batches and the run of one delivery, with the verdict rules
 * they classify by. Only the tab that sends needs it (every other tab hands its
 * answers over), and nothing is sent before it is loaded, so no answer from a
 * server ever waits for it. Loaded by load-sender.ts.
 */
export { BatchDelivery } from "./batch-delivery";
export { DeliveryRun } from "./delivery-run";
export { DeliveryTransport } from "./delivery-transport";
