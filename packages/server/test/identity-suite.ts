import { randomUUID } from "node:crypto";
import { MetadataKey, OutcomeCode } from "@agui-outbox/core/protocol";
import { describe, expect, test } from "vitest";
import { ServerCode } from "../src/index";
import { type ContractClient, resumeBody, userTurn } from "./support/contract-client";
import type { Ledger } from "./support/scripted-agent";

/** One server with `identify` reading `x-user`, and clients for two people and one with no identity. */
export interface IdentityTopology {
  readonly alice: ContractClient;
  readonly bob: ContractClient;
  readonly nobody: ContractClient;
  readonly ledger: Ledger;
  /** The server's sweep (orphaned runs, lapsed leases), run now. */
  readonly sweep: () => Promise<void>;
}

const thread = () => `thread-${randomUUID()}`;
const key = () => randomUUID();

/** Status and body of a JSON answer, with `runId` written as `<run>` so two runs' answers compare. */
async function answerOf(response: Response, runId: string) {
  return { status: response.status, body: (await response.text()).replaceAll(runId, "<run>") };
}

/** What another identity sees must be what a thread or run that never existed shows. */
export function describeIdentitySuite(name: string, topology: () => IdentityTopology): void {
  describe(`identities (${name})`, () => {
    test("no identity is 401 UNAUTHENTICATED, and nothing runs", async () => {
      const { nobody } = topology();
      const response = await nobody.post(userTurn(thread(), `turn-${randomUUID()}`, "deploy prod"));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: ServerCode.UNAUTHENTICATED } });
      const status = await nobody.status("any-run");
      expect(status.status).toBe(401);
      await status.text();
    });

    test("hydrating another identity's thread shows what a thread that never existed shows", async () => {
      const { alice, bob } = topology();
      const threadId = thread();
      const asked = await alice.askToDeploy(threadId, "deploy prod");
      const own = await alice.run({ threadId, runId: `h-${randomUUID()}`, messages: [] });
      expect(own.events.at(-1)).toMatchObject({ outcome: { interrupts: [{ id: asked.interruptId }] } });

      const foreign = await bob.run({ threadId, runId: `h-${randomUUID()}`, messages: [] });
      const never = await bob.run({ threadId: thread(), runId: `h-${randomUUID()}`, messages: [] });
      expect(foreign.types).toEqual(never.types);
      expect(foreign.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
      expect(JSON.stringify(foreign.events)).not.toContain(asked.interruptId);
    });

    test("another identity's run status and run log answer 404 exactly as a run that never existed", async () => {
      const { alice, bob } = topology();
      const { runId } = await alice.askToDeploy(thread(), "deploy prod");
      expect((await alice.status(runId)).status).toBe(200);
      const never = `turn-${randomUUID()}`;
      for (const read of [(id: string) => bob.status(id), (id: string) => bob.attach(id)]) {
        const foreign = await answerOf(await read(runId), runId);
        expect(foreign.status).toBe(404);
        expect(foreign).toEqual(await answerOf(await read(never), never));
      }
    });

    test("another identity replaying the owner's key gets no replay and none of the owner's answer", async () => {
      const { alice, bob, ledger } = topology();
      const threadId = thread();
      const asked = await alice.askToDeploy(threadId, "deploy prod");
      const k = key();
      const edited = { approved: true, editedArgs: { target: "alice-secret" } };
      const body = resumeBody(threadId, `resume-${k}`, asked.interruptId, k, edited);
      expect((await alice.run(body, k)).types.at(-1)).toBe("RUN_FINISHED");

      const replay = await bob.run(body, k);
      expect(replay.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
      expect(JSON.stringify(replay.events)).not.toContain("alice-secret");
      expect(await ledger.entries(threadId)).toHaveLength(1);
    });

    test("ALREADY_RESOLVED is never said to another identity, with or without the owner's decision", async () => {
      const { alice, bob } = topology();
      const threadId = thread();
      const asked = await alice.askToDeploy(threadId, "deploy prod");
      const k = key();
      const edited = { approved: true, editedArgs: { target: "alice-secret" } };
      await alice.run(resumeBody(threadId, `resume-${k}`, asked.interruptId, k, edited), k);

      const late = key();
      const reader = await bob.run(
        resumeBody(threadId, `resume-${late}`, asked.interruptId, late, { approved: false }),
        late,
      );
      expect(reader.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
      expect(JSON.stringify(reader.events)).not.toContain("alice-secret");
      expect(JSON.stringify(reader.events)).not.toContain(MetadataKey.resume);
    });

    test("another identity cannot answer a pending interrupt; the owner's answer then applies", async () => {
      const { alice, bob, ledger } = topology();
      const threadId = thread();
      const asked = await alice.askToDeploy(threadId, "deploy prod");
      const b = key();
      const stolen = { approved: true, editedArgs: { target: "bob-target" } };
      const reader = await bob.run(resumeBody(threadId, `resume-${b}`, asked.interruptId, b, stolen), b);
      expect(reader.events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: OutcomeCode.NOT_FOUND });
      expect(await ledger.entries(threadId)).toHaveLength(0);

      const a = key();
      const own = await alice.run(resumeBody(threadId, `resume-${a}`, asked.interruptId, a), a);
      expect(own.types.at(-1)).toBe("RUN_FINISHED");
      expect((await ledger.entries(threadId)).map((entry) => entry.target)).toEqual(["prod"]);
    });

    test("a runId belongs to its thread: another thread reusing it is 409 RUN_ID_TAKEN, the run untouched", async () => {
      const { alice, bob } = topology();
      const victim = `turn-${randomUUID()}`;
      const threadId = thread();
      await alice.run(userTurn(threadId, victim, "hello"));
      const before = await (await alice.status(victim)).json();
      const taken = await alice.post(userTurn(thread(), victim, "hello"));
      expect(taken.status).toBe(409);
      expect(await taken.json()).toMatchObject({ error: { code: ServerCode.RUN_ID_TAKEN } });
      const k = key();
      const resume = await alice.post(resumeBody(thread(), victim, "any-interrupt", k), k);
      expect(resume.status).toBe(409);
      expect(await resume.json()).toMatchObject({ error: { code: ServerCode.RUN_ID_TAKEN } });
      // To another identity the runId is free: the same id names a run of its own.
      const elsewhere = await bob.run(userTurn(thread(), victim, "hello"));
      expect(elsewhere.frames[0]?.id).toBe(`${victim}:1`);
      expect(await (await alice.status(victim)).json()).toEqual(before);
      expect(before).toMatchObject({ threadId, status: "finished" });
    });

    test("a sweep leaves an identity's live run running: it is this instance's, not an orphan", async () => {
      const { alice, sweep } = topology();
      const reader = await alice.open(userTurn(thread(), `turn-${randomUUID()}`, "hello [slow-text]"));
      await reader.waitFor((r) => r.frames.length >= 2);
      await sweep();
      await reader.done;
      expect(reader.events.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    });

    test("odd ids are a typed 400 INVALID_ID: NUL, control characters, over-long, broken encodings", async () => {
      const { alice } = topology();
      const bad = ["t\u0000nul", "t\u001fsep", "x".repeat(257), "lone\ud800"];
      for (const threadId of bad) {
        const response = await alice.post(userTurn(threadId, `turn-${randomUUID()}`, "hello"));
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: { code: ServerCode.INVALID_ID } });
      }
      const k = key();
      const badInterrupt = await alice.post(resumeBody(thread(), `r-${k}`, "i\u0000", k), k);
      expect(badInterrupt.status).toBe(400);
      expect(await badInterrupt.json()).toMatchObject({ error: { code: ServerCode.INVALID_ID } });
      const badRun = await alice.post(userTurn(thread(), "r\u0000", "hello"));
      expect(badRun.status).toBe(400);
      expect(await badRun.json()).toMatchObject({ error: { code: ServerCode.INVALID_ID } });
      const longKey = await alice.post(resumeBody(thread(), "r-long-key", "i", "k"), "k".repeat(257));
      expect(longKey.status).toBe(400);
      expect(await longKey.json()).toMatchObject({ error: { code: ServerCode.INVALID_ID } });
      // Invalid UTF-8 inside the JSON body: two such ids must not decode to one thread.
      const raw = Buffer.concat([
        Buffer.from('{"threadId":"t'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('","messages":[]}'),
      ]);
      const undecodable = await fetch(`${alice.url}/agent`, {
        method: "POST",
        headers: { ...alice.headers, "content-type": "application/json" },
        body: raw,
      });
      expect(undecodable.status).toBe(400);
      await undecodable.text();
      for (const path of ["%E0%A4%A", "%C3%28", "%00", `${"y".repeat(300)}`]) {
        for (const suffix of ["", "/events"]) {
          const response = await fetch(`${alice.url}/agent/runs/${path}${suffix}`, {
            headers: alice.headers,
          });
          expect(response.status).toBe(400);
          expect(await response.json()).toMatchObject({ error: { code: ServerCode.INVALID_ID } });
        }
      }
    });
  });
}
