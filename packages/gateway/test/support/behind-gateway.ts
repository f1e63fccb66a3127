import { randomUUID } from "node:crypto";
import {
  approval,
  askToDeploy,
  type CheckResult,
  type CheckTarget,
  CONTRACT_CHECKS,
  codeOf,
  executions,
  finished,
  metadataOf,
  post,
  type RunReply,
  resume,
} from "@agui-outbox/conformance";
import { OutcomeCode } from "@agui-outbox/core/protocol";
import { expect } from "vitest";
import type { PythonPeer } from "../../../mock-server/test/interop/python-peer";
import { GATEWAY_LIMITS, type GatewayFamily, runConformanceCli } from "../interop/gateway-columns";
import { type RunningGateway, startGateway } from "./start-gateway";

/** A real peer with the gateway in front: requests go to the gateway, the ledger and faults to the peer. */
export interface BehindGateway {
  readonly target: CheckTarget;
  readonly peer: PythonPeer;
  readonly gateway: RunningGateway;
  close(): Promise<void>;
}

export async function behindGateway(start: () => Promise<PythonPeer>): Promise<BehindGateway> {
  const peer = await start();
  try {
    const gateway = await startGateway(`${peer.url}/agent`);
    return {
      target: { url: gateway.url, ledger: peer.ledger, chaos: peer.chaos },
      peer,
      gateway,
      async close() {
        await gateway.close();
        await peer.close();
      },
    };
  } catch (error) {
    await peer.close();
    throw error;
  }
}

/** One of the contract's own checks (`@agui-outbox/conformance`), by id. */
export function runCheck(id: string, target: CheckTarget): Promise<CheckResult> {
  const check = CONTRACT_CHECKS.find((candidate) => candidate.id === id);
  if (check === undefined) throw new Error(`no contract check ${id}`);
  return check.run(target);
}

/** How a reply ended: "finished", "replayed" (marked), or its error code. */
export function endOf(reply: RunReply): string {
  const end = finished(reply);
  if (end === undefined) return codeOf(reply);
  return metadataOf(end, "x-resume")?.replayed === true ? "replayed" : "finished";
}

/** Approves one new question with two identical requests (`together`: at once; else one after the other). */
export async function approveTwice(target: CheckTarget, label: string, together: boolean) {
  const asked = await askToDeploy(target, label);
  const key = randomUUID();
  const input = resume(asked, approval(asked, true), key);
  const replies = together
    ? await Promise.all([post(target, input, key), post(target, input, key)])
    : [await post(target, input, key), await post(target, input, key)];
  return { replies: replies.map(endOf), count: await executions(target, asked.threadId) };
}

/** Two people's devices approve one question at once, each under its own key. */
export async function approveFromTwoDevices(target: CheckTarget, label: string) {
  const asked = await askToDeploy(target, label);
  const send = () => {
    const key = randomUUID();
    return post(target, resume(asked, approval(asked, true), key), key);
  };
  const replies = await Promise.all([send(), send()]);
  return { replies: replies.map(endOf).sort(), count: await executions(target, asked.threadId) };
}

/** A resume naming an interrupt the upstream never asked, then the real one. */
export async function answerMadeUpId(target: CheckTarget, label: string) {
  const asked = await askToDeploy(target, label);
  const key = randomUUID();
  const madeUp = await post(
    target,
    resume({ ...asked, interruptId: `made-up-${randomUUID()}` }, { approved: true }, key),
    key,
  );
  const before = await executions(target, asked.threadId);
  const real = randomUUID();
  const after = await post(target, resume(asked, approval(asked, true), real), real);
  return {
    madeUp: endOf(madeUp),
    before,
    real: endOf(after),
    after: await executions(target, asked.threadId),
  };
}

/** Two devices at once under their own keys: one execution; the other is told it is in progress, or replayed. */
export async function expectTwoDevicesRunOnce(target: CheckTarget): Promise<void> {
  const { replies, count } = await approveFromTwoDevices(target, "devices");
  expect(count).toBe(1);
  expect(replies).toContain("finished");
  const other = replies.find((reply) => reply !== "finished") ?? "replayed";
  expect([OutcomeCode.IN_PROGRESS, "replayed"]).toContain(other);
}

/** A made-up interrupt id is NOT_FOUND and runs nothing; the real question still runs once. */
export async function expectMadeUpIdNotFound(target: CheckTarget): Promise<void> {
  expect(await answerMadeUpId(target, "madeup")).toEqual({
    madeUp: OutcomeCode.NOT_FOUND,
    before: 0,
    real: "finished",
    after: 1,
  });
}

/** The conformance CLI against the gateway: every check passes but those the upstream prevents (`GATEWAY_LIMITS`). */
export async function expectCliPasses(running: BehindGateway, family: GatewayFamily): Promise<void> {
  const report = await runConformanceCli(`${running.gateway.url}/agent`, running.peer.url);
  const failed = [...report.results]
    .filter(([, result]) => !result.pass)
    .map(([id, result]) => `${id}: ${result.observed}`);
  const limits = Object.keys(GATEWAY_LIMITS[family] ?? {});
  expect(failed.map((line) => line.split(":")[0]).sort(), failed.join("\n")).toEqual(limits.sort());
}
