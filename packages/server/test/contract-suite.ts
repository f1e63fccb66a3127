import { randomUUID } from "node:crypto";
import { MetadataKey, OutcomeCode } from "@agui-outbox/core/protocol";
import { describe, expect, test } from "vitest";
import { type ContractClient, resumeBody } from "./support/contract-client";
import type { Ledger } from "./support/scripted-agent";

/** Where the suite runs: one in-process server on memory, or replicas on Postgres behind a proxy. */
export interface Topology {
  readonly client: ContractClient;
  readonly ledger: Ledger;
}

const thread = () => `thread-${randomUUID()}`;
const key = () => randomUUID();

/** The recovery contract, asserted over HTTP and at the ledger. The same tests for every store and topology. */
export function describeContractSuite(name: string, topology: () => Topology): void {
  describe(`the recovery contract (${name})`, () => {
    test("an approval is claimed, executed once with its result stored, and committed", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const k = key();
      const runId = `resume-${k}`;
      const reader = await client.run(resumeBody(threadId, runId, asked.interruptId, k), k);
      expect(reader.types).toEqual([
        "RUN_STARTED",
        "TOOL_CALL_RESULT",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "RUN_FINISHED",
      ]);
      expect(reader.events[0]?.metadata).toMatchObject({
        [MetadataKey.resume]: { ack: "claimed", interruptIds: [asked.interruptId], idempotencyKey: k, runId },
      });
      expect(reader.frames.map((frame) => frame.id)).toEqual(
        [1, 2, 3, 4, 5, 6].map((seq) => `${runId}:${seq}`),
      );
      expect(reader.events[1]).toMatchObject({ toolCallId: asked.toolCallId, content: "deployed to prod" });
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("the same submission again replays the recorded stream marked replayed, and runs nothing", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const k = key();
      const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k);
      await client.run(body, k);
      const again = await client.run(body, k);
      expect(again.types.at(-1)).toBe("RUN_FINISHED");
      expect(again.events.at(-1)?.metadata).toMatchObject({
        [MetadataKey.resume]: { replayed: true, originalRunId: `resume-${k}` },
      });
      // Another tab with another key but the same decision is a replay too.
      const other = key();
      const elsewhere = await client.run(
        resumeBody(threadId, `resume-${other}`, asked.interruptId, other),
        other,
      );
      expect(elsewhere.events.at(-1)?.metadata).toMatchObject({ [MetadataKey.resume]: { replayed: true } });
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("a different decision after the commit is ALREADY_RESOLVED with the recorded decision", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const k = key();
      await client.run(resumeBody(threadId, `resume-${k}`, asked.interruptId, k), k);
      const late = key();
      const reader = await client.run(
        resumeBody(threadId, `resume-${late}`, asked.interruptId, late, { approved: false }),
        late,
      );
      expect(reader.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.ALREADY_RESOLVED });
      expect(reader.events.at(-1)?.metadata).toMatchObject({
        [MetadataKey.resume]: {
          recordedDecisions: [
            { interruptId: asked.interruptId, status: "resolved", payload: { approved: true } },
          ],
          originalRunId: `resume-${k}`,
        },
      });
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("key reuse with another body is 422, a resume without a key 400, a never-pending id NOT_FOUND", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const k = key();
      const first = await client.post(
        resumeBody(threadId, `resume-${k}`, asked.interruptId, k, { approved: false }),
        k,
      );
      await first.text();
      const reused = await client.post(resumeBody(threadId, `resume-${k}`, asked.interruptId, k), k);
      expect(reused.status).toBe(422);
      expect(await reused.json()).toMatchObject({ error: { code: OutcomeCode.IDEMPOTENCY_KEY_REUSED } });
      const keyless = await client.post(resumeBody(threadId, "r-no-key", asked.interruptId, "x"));
      expect(keyless.status).toBe(400);
      await keyless.text();
      // A new key may not continue another request's run.
      const fresh = key();
      const stolen = await client.post(resumeBody(threadId, `resume-${k}`, asked.interruptId, fresh), fresh);
      expect(stolen.status).toBe(409);
      await stolen.text();
      const ghost = key();
      const notFound = await client.run(resumeBody(threadId, `resume-${ghost}`, "never-asked", ghost), ghost);
      expect(notFound.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
      expect(await ledger.entries(threadId)).toHaveLength(0);
    });

    test("edited arguments are what the tool runs with; a rejection runs nothing", async () => {
      const { client, ledger } = topology();
      const edited = thread();
      const asked = await client.askToDeploy(edited, "deploy prod");
      const k = key();
      await client.run(
        resumeBody(edited, `resume-${k}`, asked.interruptId, k, {
          approved: true,
          editedArgs: { target: "staging" },
        }),
        k,
      );
      expect((await ledger.entries(edited)).map((entry) => entry.target)).toEqual(["staging"]);

      const rejected = thread();
      const second = await client.askToDeploy(rejected, "deploy prod");
      const r = key();
      const reader = await client.run(
        resumeBody(rejected, `resume-${r}`, second.interruptId, r, { approved: false }),
        r,
      );
      expect(reader.types.at(-1)).toBe("RUN_FINISHED");
      expect(reader.types).not.toContain("TOOL_CALL_RESULT");
      expect(await ledger.entries(rejected)).toHaveLength(0);
    });

    test("a failure after the tool rolls back keeping the result: the retry reuses it, one execution", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod [fail-model-once]");
      const k = key();
      const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k);
      const failed = await client.run(body, k);
      expect(failed.types).toContain("TOOL_CALL_RESULT");
      expect(failed.events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
      const retried = await client.run(body, k);
      expect(retried.types.at(-1)).toBe("RUN_FINISHED");
      const results = retried.events.filter((event) => event.type === "TOOL_CALL_RESULT");
      const firstResult = failed.events.find((event) => event.type === "TOOL_CALL_RESULT");
      expect(results).toHaveLength(1);
      expect(results[0]?.messageId).toBe(firstResult?.messageId);
      // The cursor keeps counting across attempts of one run.
      expect(retried.frames[0]?.id).toBe(`resume-${k}:${failed.frames.length + 1}`);
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("a tool cut off with no result is INDETERMINATE, and stays so: never run again", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod [tool-throws]");
      const k = key();
      const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k);
      const first = await client.run(body, k);
      expect(first.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
      const retried = await client.run(body, k);
      expect(retried.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.INDETERMINATE });
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("two tabs answering at once: one claim, the other IN_PROGRESS or answered elsewhere; one execution", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const [a, b] = [key(), key()];
      const readers = await Promise.all(
        [a, b].map((k) => client.run(resumeBody(threadId, `resume-${k}`, asked.interruptId, k), k)),
      );
      const endings = readers.map((reader) => reader.events.at(-1));
      const applied = endings.filter(
        (event) =>
          event?.type === "RUN_FINISHED" &&
          (event.metadata as Record<string, unknown> | undefined)?.[MetadataKey.resume] === undefined,
      );
      expect(applied).toHaveLength(1);
      const other = endings.find((event) => !applied.includes(event));
      const replayed =
        other?.type === "RUN_FINISHED" &&
        (other.metadata as Record<string, { replayed?: boolean }> | undefined)?.[MetadataKey.resume]
          ?.replayed;
      expect(replayed || other?.code === OutcomeCode.IN_PROGRESS).toBeTruthy();
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("the same submission sent twice at once shows one run: both see its events, one execution", async () => {
      const { client, ledger } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const k = key();
      const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k);
      const readers = await Promise.all([client.run(body, k), client.run(body, k)]);
      for (const reader of readers) expect(reader.types.at(-1)).toBe("RUN_FINISHED");
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("a dropped stream re-attaches with Last-Event-ID and gets every remaining event once", async () => {
      const { client } = topology();
      const threadId = thread();
      const runId = `turn-${randomUUID()}`;
      const reader = await client.open(
        { threadId, runId, messages: [{ id: "m1", role: "user", content: "hello [slow-text]" }] },
        undefined,
      );
      await reader.waitFor((r) => r.frames.length >= 2);
      await reader.cancel();
      const seen = reader.frames.slice(0, 2);
      const rest = await client.attach(runId, seen.at(-1)?.id);
      expect(rest.status).toBe(200);
      const { SseReader } = await import("../../mock-server/test/support/sse-reader");
      const tail = new SseReader(rest);
      await tail.done;
      const ids = [...seen, ...tail.frames].map((frame) => frame.id);
      const last = tail.frames.length + 2;
      expect(ids).toEqual(Array.from({ length: last }, (_, index) => `${runId}:${index + 1}`));
      expect(tail.types.at(-1)).toBe("RUN_FINISHED");
      const status = await (await client.status(runId)).json();
      expect(status).toMatchObject({ runId, threadId, status: "finished", lastSeq: last });
      const unknown = await client.attach("no-such-run");
      expect(unknown.status).toBe(404);
      await unknown.text();
    });

    test("hydration shows the open interrupt; a user turn while it is open is told to answer first", async () => {
      const { client } = topology();
      const threadId = thread();
      const asked = await client.askToDeploy(threadId, "deploy prod");
      const hydrated = await client.run({ threadId, runId: `h-${randomUUID()}`, messages: [] });
      expect(hydrated.events.at(-1)).toMatchObject({
        type: "RUN_FINISHED",
        outcome: { type: "interrupt", interrupts: [{ id: asked.interruptId }] },
      });
      const blocked = await client.run({
        threadId,
        runId: `t-${randomUUID()}`,
        messages: [{ id: "m2", role: "user", content: "deploy dev" }],
      });
      expect(blocked.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.REQUIRED });
      const capabilities = await (await fetch(`${client.url}/agent/capabilities`)).json();
      expect(capabilities.custom[MetadataKey.recovery]).toMatchObject({ version: 1 });
    });
  });
}
