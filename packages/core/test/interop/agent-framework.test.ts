import { IDBFactory } from "fake-indexeddb";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  type AgentFrameworkPeer,
  type PeerRelease,
  peerUnavailableReason,
  startAgentFrameworkPeer,
} from "../../../mock-server/test/interop/agent-framework-peer";
import type { OutboxClient } from "../../src/client/create-outbox-client";
import type { OutboxEntry } from "../../src/outbox/entry";
import { createIsolatedClient } from "../../testing/isolated-client";
import { askForDeployment, settled } from "../integration/harness";

// Our SDK against the real Agent Framework AG-UI server (e2e/peers/agent-framework) with
// a scripted model, in two releases: the current one, and the one the approval-resume
// report was filed against. Neither has the recovery contract: DESIGN.md's rules for
// servers without it must hold against the real thing, not only against the emulations.

type Verdict = "applied" | "lost";

interface ReleaseExpectations {
  /** After a failure past the tool: the current release keeps its result in the thread. */
  readonly failureAfterTool: Verdict;
  /**
   * Requests it takes. The reported release runs the tool at ingress and reports the
   * failure as a bare RUN_ERROR before any RUN_STARTED: nothing says the tool ran, so
   * the client resends once, as DESIGN.md allows, and NOT_FOUND after its own send
   * sends it to the thread.
   */
  readonly failureAfterToolAttempts: number;
  /**
   * Both releases stream the tool's result before the cut: it ran, the end of the run
   * unseen (the reported release's thread would not show it: a seen result decides).
   */
  readonly dropAfterToolResult: Verdict;
  /** Its RUN_STARTED arrived, so the server took the answer and nothing is resent. */
  readonly dropAfterToolResultAttempts: number;
  /** How a resend after a success is answered: replayed, or NOT_FOUND then reconciled. */
  readonly duplicateAnswer: "replay" | "not-found";
  /**
   * A reject whose stream drops after RUN_STARTED. The current release keeps the
   * rejection in the thread; the reported one aborts the run, its thread shows the
   * question open again, and a resend is NOT_FOUND: nothing can say what became of it.
   */
  readonly rejectDropped: Verdict;
  /**
   * The approved tool unavailable. The current release says so after RUN_STARTED
   * (APPROVAL_TOOL_UNAVAILABLE) and runs it on the identical retry; the reported one
   * consumes the answer and finishes with "Error: Function failed.": nothing ran, and
   * nothing can run it now.
   */
  readonly toolUnavailable: {
    readonly verdict: Verdict;
    readonly attempts: number;
    readonly executions: number;
  };
  /**
   * Both questions of "deploy to prod and staging" approved, sent in one resume. The
   * current release runs both; the reported one reads only the first entry: that one
   * is applied, the other is kept for the person (nothing ran for it).
   */
  readonly batch: { readonly states: readonly string[]; readonly executions: number };
  /**
   * The first approved, the second rejected, in one resume. The current release runs
   * neither and asks the rejected call again under a new interrupt id: neither answer
   * was taken. The reported one takes the approval (the first entry) only.
   */
  readonly mixedBatch: { readonly states: readonly string[]; readonly executions: number };
  /**
   * Then each answer kept for the person is answered again. On the current release both
   * questions are still open (only the rejected one shown): both approved, one request,
   * both run. On the reported one the unread question is still open, unshown: the same
   * rejection sent again on its own is taken.
   */
  readonly mixedAgain: {
    readonly approveAll: boolean;
    readonly states: readonly string[];
    readonly executions: number;
  };
}

const RELEASES: ReadonlyArray<readonly [PeerRelease, ReleaseExpectations]> = [
  [
    "current",
    {
      failureAfterTool: "applied",
      failureAfterToolAttempts: 1,
      dropAfterToolResult: "applied",
      dropAfterToolResultAttempts: 1,
      duplicateAnswer: "replay",
      rejectDropped: "applied",
      toolUnavailable: { verdict: "applied", attempts: 2, executions: 1 },
      batch: { states: ["applied", "applied"], executions: 2 },
      mixedBatch: { states: ["needs_user", "needs_user"], executions: 0 },
      mixedAgain: { approveAll: true, states: ["applied", "applied"], executions: 2 },
    },
  ],
  [
    "reported",
    {
      failureAfterTool: "lost",
      failureAfterToolAttempts: 2,
      dropAfterToolResult: "applied",
      dropAfterToolResultAttempts: 1,
      duplicateAnswer: "not-found",
      rejectDropped: "lost",
      toolUnavailable: { verdict: "lost", attempts: 1, executions: 0 },
      batch: { states: ["applied", "needs_user"], executions: 1 },
      mixedBatch: { states: ["applied", "needs_user"], executions: 1 },
      mixedAgain: { approveAll: false, states: ["applied"], executions: 1 },
    },
  ],
];

for (const [release] of RELEASES) {
  const reason = peerUnavailableReason(release);
  if (reason) console.warn(`skipped: ${reason}`);
}

describe.each(RELEASES)("the real Agent Framework server, %s release", (release, expected) => {
  const unavailable = peerUnavailableReason(release);
  let peer: AgentFrameworkPeer;
  const clients: OutboxClient[] = [];
  let indexedDB = new IDBFactory();

  beforeAll(async () => {
    if (unavailable === undefined) peer = await startAgentFrameworkPeer(release);
  }, 40_000);
  afterAll(async () => {
    await peer?.close();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.dispose();
    indexedDB = new IDBFactory();
    await peer?.reset();
  });

  /**
   * A page's client; a second call in one test is a reload (same IndexedDB). A
   * `device` of its own has its own IndexedDB: another browser of the same person.
   */
  function open(
    fetchImpl?: (input: string, init?: RequestInit) => Promise<Response>,
    device?: IDBFactory,
    stallTimeoutMs?: number,
  ): OutboxClient {
    const client = createIsolatedClient({
      ...(stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
      url: `${peer.url}/agent`,
      namespace: "user-1",
      dbName: "outbox-af",
      retry: { backoff: { baseMs: 20, capMs: 200 } },
      indexedDB: device ?? indexedDB,
      ...(fetchImpl ? { deps: { fetch: fetchImpl } } : {}),
    });
    clients.push(client);
    return client;
  }

  async function started(): Promise<OutboxClient> {
    const client = open();
    await client.start();
    return client;
  }

  const executions = async (threadId: string) =>
    (await peer.ledger()).filter((execution) => execution.threadId === threadId);

  test.skipIf(unavailable !== undefined)(
    "no capabilities route: the client detects a server without the contract",
    async () => {
      const client = await started();
      await expect.poll(() => client.connection.getState().serverKind).toBe("degraded");
      expect(client.connection.getState().link.name).toBe("connected");
    },
  );

  test.skipIf(unavailable !== undefined)(
    "two questions answered: one request under one key, each answer its own true verdict",
    async () => {
      const requests: string[] = [];
      const client = open((input, init) => {
        const key = new Headers(init?.headers).get("idempotency-key");
        if (key) requests.push(key);
        return fetch(input, init);
      });
      await client.start();
      const thread = client.thread("af-batch");
      await thread.send("deploy to prod and staging");
      const interrupts = thread.store.getState().pendingInterrupts;
      expect(interrupts).toHaveLength(2);
      const entries: OutboxEntry[] = [];
      for (const interrupt of interrupts)
        entries.push(
          await client.answer({ threadId: "af-batch", interruptId: interrupt.id, approved: true }),
        );
      const final = await Promise.all(entries.map((entry) => settled(client, entry.key)));
      expect(requests).toEqual([entries[1]?.key]);
      const ran = await executions("af-batch");
      expect(ran).toHaveLength(expected.batch.executions);
      expect(final.map((entry) => entry.state).sort()).toEqual([...expected.batch.states].sort());
      // "Applied" exactly where the tool ran.
      const ranCalls = new Set(ran.map((execution) => execution.toolCallId));
      for (const entry of final)
        expect(entry.state === "applied").toBe(ranCalls.has(entry.toolCallId ?? entry.interruptId));
    },
  );

  test.skipIf(unavailable !== undefined)(
    "one approved, one rejected in one resume: 'applied' only where the server took the answer",
    async () => {
      const client = await started();
      const thread = client.thread("af-mixed");
      await thread.send("deploy to prod and staging");
      const interrupts = thread.store.getState().pendingInterrupts;
      expect(interrupts).toHaveLength(2);
      const entries: OutboxEntry[] = [];
      for (const [index, interrupt] of interrupts.entries()) {
        const approved = index === 0;
        entries.push(await client.answer({ threadId: "af-mixed", interruptId: interrupt.id, approved }));
      }
      const final = await Promise.all(entries.map((entry) => settled(client, entry.key)));
      const ran = await executions("af-mixed");
      // 1.7.0 runs neither and asks the rejected call again; 1.0.1 takes the first entry only.
      expect(final.map((entry) => entry.state)).toEqual(expected.mixedBatch.states);
      expect(ran).toHaveLength(expected.mixedBatch.executions);
      expect(
        final.every((entry) => entry.decision.kind === (entry === final[0] ? "approve" : "reject")),
      ).toBe(true);

      // No dead end: each answer kept for the person can be sent again, and settles.
      const kept = final.filter((entry) => entry.state === "needs_user");
      const again: OutboxEntry[] = [];
      for (const entry of kept.toReversed()) {
        const approved = expected.mixedAgain.approveAll || entry.decision.kind === "approve";
        again.push(await client.answer({ threadId: "af-mixed", interruptId: entry.interruptId, approved }));
      }
      const second = await Promise.all(again.map((entry) => settled(client, entry.key)));
      expect(second.map((entry) => entry.state)).toEqual(expected.mixedAgain.states);
      const ranAfter = await executions("af-mixed");
      expect(ranAfter).toHaveLength(expected.mixedAgain.executions);
      // "Applied" for an approval only where its tool ran.
      const ranCalls = new Set(ranAfter.map((execution) => execution.toolCallId));
      for (const entry of [...final, ...second])
        if (entry.state === "applied" && entry.decision.kind === "approve")
          expect(ranCalls.has(entry.toolCallId ?? entry.interruptId)).toBe(true);
    },
  );

  test.skipIf(unavailable !== undefined)(
    "its interrupt becomes a pending approval the card can render: tool call, question, schema",
    async () => {
      const client = await started();
      const interrupt = await askForDeployment(client, "af-card");

      expect(interrupt.toolCallId).toBe("deploy-af-card");
      expect(interrupt.message).toMatch(/deploy_change/);
      // The decision flag and the editable argument, in whichever form the release uses.
      const declared = Object.keys(
        (interrupt.responseSchema as { properties: Record<string, unknown> }).properties,
      );
      expect(declared.filter((key) => key === "approved" || key === "accepted")).not.toEqual([]);
      expect(declared.includes("editedArgs") || declared.includes("target")).toBe(true);
      const thread = client.thread("af-card").store.getState();
      const proposed = thread.messages.flatMap((message) =>
        message.role === "assistant" ? (message.toolCalls ?? []) : [],
      );
      expect(proposed.map((call) => call.function.name)).toContain("deploy_change");
    },
  );

  test.skipIf(unavailable !== undefined)(
    "approve → applied, the tool runs once with the proposed arguments",
    async () => {
      const client = await started();
      const interrupt = await askForDeployment(client, "af-approve");

      const entry = await client.answer({
        threadId: "af-approve",
        interruptId: interrupt.id,
        approved: true,
      });
      const final = await settled(client, entry.key);

      expect(final.state).toBe("applied");
      expect(client.thread("af-approve").store.getState().pendingInterrupts).toEqual([]);
      const ran = await executions("af-approve");
      expect(ran).toHaveLength(1);
      expect(ran[0]?.args).toEqual({ target: "prod" });
    },
  );

  test.skipIf(unavailable !== undefined)(
    "edited arguments arrive in the form its schema declares, and run",
    async () => {
      const client = await started();
      const interrupt = await askForDeployment(client, "af-edit");
      const declared = (interrupt.responseSchema as { properties: Record<string, unknown> }).properties;

      const entry = await client.answer({
        threadId: "af-edit",
        interruptId: interrupt.id,
        approved: true,
        editedArgs: { target: "staging" },
      });
      const final = await settled(client, entry.key);

      expect(final.state).toBe("applied");
      // Nested only where the schema declares editedArgs; the flags the (closed) schema names.
      const flags = Object.fromEntries(
        ["approved", "accepted"].filter((flag) => flag in declared).map((flag) => [flag, true]),
      );
      expect(JSON.parse(entry.body).resume[0].payload).toEqual(
        "editedArgs" in declared
          ? { ...flags, editedArgs: { target: "staging" } }
          : { ...flags, target: "staging" },
      );
      const ran = await executions("af-edit");
      expect(ran.map((execution) => execution.args)).toEqual([{ target: "staging" }]);
    },
  );

  test.skipIf(unavailable !== undefined)(
    "edited arguments its schema refuses never leave the page",
    async () => {
      const client = await started();
      const interrupt = await askForDeployment(client, "af-edit-bad");

      await expect(
        client.answer({
          threadId: "af-edit-bad",
          interruptId: interrupt.id,
          approved: true,
          editedArgs: { target: 7 },
        }),
      ).rejects.toMatchObject({ kind: "invalid_answer" });
      expect(client.entryFor("af-edit-bad", interrupt.id)).toBeUndefined();
      expect(await executions("af-edit-bad")).toHaveLength(0);
    },
  );

  test.skipIf(unavailable !== undefined)("reject → applied, nothing runs", async () => {
    const client = await started();
    const interrupt = await askForDeployment(client, "af-reject");

    const entry = await client.answer({ threadId: "af-reject", interruptId: interrupt.id, approved: false });
    const final = await settled(client, entry.key);

    expect(final.state).toBe("applied");
    expect(await executions("af-reject")).toHaveLength(0);
  });

  for (const [name, fault, verdict, attempts, appliedBy] of [
    [
      "the model call after the tool fails",
      { point: "after-tool", action: "fail" },
      expected.failureAfterTool,
      expected.failureAfterToolAttempts,
      /confirmed from the conversation/,
    ],
    [
      "the connection drops after the tool result",
      { point: "mid-stream", action: "drop", afterEvents: 2 },
      expected.dropAfterToolResult,
      expected.dropAfterToolResultAttempts,
      /its result arrived\); the end of the run was not seen/,
    ],
  ] as const) {
    test.skipIf(unavailable !== undefined)(
      `${name}: the evidence decides (${verdict}), the answer is kept, one execution`,
      async () => {
        const threadId = `af-${fault.point}`;
        const client = await started();
        const interrupt = await askForDeployment(client, threadId);
        await peer.chaos([{ ...fault, threadId }]);

        const entry = await client.answer({ threadId, interruptId: interrupt.id, approved: true });
        const final = await settled(client, entry.key);

        // DESIGN.md, servers without the contract: RUN_STARTED means the tool ran, so a
        // failure after it is reconciled from the evidence (the result seen on the stream,
        // else the thread), never by resending blindly. "lost" where neither shows the
        // result: the tool may have run, and the person is told so; the answer is kept.
        expect(final).toMatchObject({ state: verdict, decision: { kind: "approve" }, attempts });
        if (verdict === "applied") expect(final.verdictDetail).toMatch(appliedBy);
        expect(client.entryFor(threadId, interrupt.id)?.key).toBe(entry.key);
        // The reported release's snapshot still shows the consumed interrupt as open: the
        // verdict closes it (just after it is stored), so no card asks again.
        await expect.poll(() => client.thread(threadId).store.getState().pendingInterrupts).toEqual([]);
        expect(await executions(threadId)).toHaveLength(1);

        // A reload re-sends nothing: the verdict is durable.
        client.dispose();
        const reloaded = open();
        await reloaded.start();
        // Settled verdicts are read once start() has resolved.
        await expect
          .poll(() => reloaded.entryFor(threadId, interrupt.id))
          .toMatchObject({ key: entry.key, state: verdict });
        expect(await executions(threadId)).toHaveLength(1);
      },
    );
  }

  test.skipIf(unavailable !== undefined)(
    `a duplicate after success (the page died with the answer in flight) → applied (${expected.duplicateAnswer}), once`,
    async () => {
      // The first page's resume reaches the server and runs to the end, but the page
      // never reads the answer: it was closed. The reloaded page sends the same bytes.
      let deliver!: () => void;
      const delivered = new Promise<void>((resolve) => {
        deliver = resolve;
      });
      const page = open((input, init) => {
        const response = fetch(input, init);
        if (!new Headers(init?.headers).has("idempotency-key")) return response;
        return response.then(async (answer) => {
          await answer.text();
          deliver();
          return new Promise<Response>(() => {});
        });
      });
      await page.start();
      const interrupt = await askForDeployment(page, "af-duplicate");
      const entry: OutboxEntry = await page.answer({
        threadId: "af-duplicate",
        interruptId: interrupt.id,
        approved: true,
      });
      await delivered;
      expect(await executions("af-duplicate")).toHaveLength(1);
      page.dispose();

      const reloaded = open();
      await reloaded.start();
      const final = await settled(reloaded, entry.key);

      expect(final.state).toBe("applied");
      expect(final.attempts).toBe(2);
      // The current release replays its record (a plain RUN_FINISHED: neither release marks
      // a replay, see docs/interop.md); the reported one answers NOT_FOUND, which after our
      // own send means "consumed": the thread shows the result, so applied from it.
      expect(final.replayed ?? false).toBe(false);
      if (expected.duplicateAnswer === "replay") expect(final.verdictDetail).toBe("The answer took effect.");
      else expect(final.verdictDetail).toMatch(/confirmed from the conversation/);
      expect(await executions("af-duplicate")).toHaveLength(1);
    },
  );

  // A rejection is stored as a tool message ("Error: Tool call invocation was rejected by
  // user.") by both releases: it is not evidence that the tool ran.
  test.skipIf(unavailable !== undefined)(
    `reject, the stream drops after RUN_STARTED → ${expected.rejectDropped}: a rejection is not an execution`,
    async () => {
      const client = await started();
      const interrupt = await askForDeployment(client, "af-reject-drop");
      await peer.chaos([{ point: "mid-stream", action: "drop", afterEvents: 1, threadId: "af-reject-drop" }]);

      const entry = await client.answer({
        threadId: "af-reject-drop",
        interruptId: interrupt.id,
        approved: false,
      });
      const final = await settled(client, entry.key);

      expect(await executions("af-reject-drop")).toHaveLength(0);
      expect(final.state).toBe(expected.rejectDropped);
      expect(final.verdictDetail ?? "").not.toMatch(/the action ran/);
    },
  );

  test.skipIf(unavailable !== undefined)(
    "one device rejects, a stale second device approves: never applied, nothing ran",
    async () => {
      const first = await started();
      const interrupt = await askForDeployment(first, "af-two-devices");
      const second = open(undefined, new IDBFactory());
      await second.start();
      await second.thread("af-two-devices").hydrate();
      expect(
        second
          .thread("af-two-devices")
          .store.getState()
          .pendingInterrupts.map((i) => i.id),
      ).toEqual([interrupt.id]);

      const rejected = await first.answer({
        threadId: "af-two-devices",
        interruptId: interrupt.id,
        approved: false,
      });
      expect((await settled(first, rejected.key)).state).toBe("applied");
      const approved = await second.answer({
        threadId: "af-two-devices",
        interruptId: interrupt.id,
        approved: true,
      });
      const final = await settled(second, approved.key);

      expect(await executions("af-two-devices")).toHaveLength(0);
      // 1.7.0 says the resume conflicts; 1.0.1's thread shows the rejection marker.
      expect(final.state).toBe("elsewhere");
      expect(final.verdictDetail ?? "").not.toMatch(/the action ran/);
      expect(second.entryFor("af-two-devices", interrupt.id)?.key).toBe(approved.key);
    },
  );

  test.skipIf(unavailable !== undefined)(
    `tool unavailable → ${expected.toolUnavailable.verdict}: never applied without the tool's own result`,
    async () => {
      const requests: Array<string | null> = [];
      const client = open((input, init) => {
        const key = new Headers(init?.headers).get("idempotency-key");
        if (key) requests.push(key);
        return fetch(input, init);
      });
      await client.start();
      const interrupt = await askForDeployment(client, "af-unavailable");
      await peer.chaos([{ point: "before-claim", action: "fail", threadId: "af-unavailable" }]);

      const entry = await client.answer({
        threadId: "af-unavailable",
        interruptId: interrupt.id,
        approved: true,
      });
      const final = await settled(client, entry.key);

      const { verdict, attempts, executions: ran } = expected.toolUnavailable;
      expect(final).toMatchObject({ state: verdict, attempts });
      // Every attempt is the same submission: one key.
      expect(requests).toEqual(Array.from({ length: attempts }, () => entry.key));
      expect(await executions("af-unavailable")).toHaveLength(ran);
    },
  );

  // Neither release sends keepalives, and 1.7.0 marks a disconnect mid-tool as
  // indeterminate: the client's own watchdog must not be what ends the stream.
  test.skipIf(unavailable !== undefined)(
    "a tool that runs longer than the stall watchdog: the stream is not cut, applied, one execution",
    async () => {
      const client = open(undefined, undefined, 300);
      await client.start();
      const interrupt = await askForDeployment(client, "af-long-tool");
      await peer.chaos([{ point: "mid-tool", action: "delay", delayMs: 1500, threadId: "af-long-tool" }]);

      const entry = await client.answer({
        threadId: "af-long-tool",
        interruptId: interrupt.id,
        approved: true,
      });
      const final = await settled(client, entry.key);

      expect(final).toMatchObject({ state: "applied", attempts: 1, lastError: null });
      expect(await executions("af-long-tool")).toHaveLength(1);
    },
  );
});
