import { expect, test } from "@playwright/test";
import { mockUrl, readLedger, resetMock } from "./mock-server-client";
import {
  approvalCard,
  approve,
  askToDeploy,
  cardStatus,
  conversation,
  newThreadId,
  openThread,
} from "./support/demo-page";

test.beforeEach(resetMock);

// The mock's identify trusts this header; the demo sends its signed-in user in it.
const as = (user: string) => ({ "content-type": "application/json", "x-demo-user": user });

test("a second user on the same thread sees no question of the first and cannot answer it", async ({
  page,
}) => {
  const threadId = newThreadId("identity");
  await openThread(page, threadId);
  await askToDeploy(page);

  // bob on the same threadId: his own, empty thread; his turn gets its own reply.
  // A reload after each switch: the page hydrates the thread as the user now signed in.
  await page.getByTestId("user-switch").selectOption("bob");
  await page.reload();
  await openThread(page, threadId);
  await page.getByLabel("Your message", { exact: true }).fill("hello from bob");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(conversation(page)).toContainText("I can deploy changes for you.");
  // Only bob's message and its reply: none of alice's turn (the reply itself names "please deploy to prod").
  await expect(conversation(page).getByRole("listitem")).toHaveCount(2);
  await expect(approvalCard(page)).toHaveCount(0);

  // bob answering alice's question directly, with her interrupt's id: it is not there for him.
  const views = (await (await fetch(`${mockUrl}/__occurrences?threadId=${threadId}`)).json()) as {
    occurrences: { interruptId: string }[];
  };
  const interruptId = views.occurrences[0]?.interruptId ?? "";
  const stolen = await fetch(`${mockUrl}/agent`, {
    method: "POST",
    headers: { ...as("bob"), "idempotency-key": "k-bob" },
    body: JSON.stringify({
      threadId,
      runId: "r-bob-answer",
      messages: [],
      resume: [
        { interruptId, status: "resolved", payload: { approved: true, editedArgs: { target: "bob" } } },
      ],
    }),
  });
  expect(await stolen.text()).toContain("APPROVAL_RESUME_NOT_FOUND");
  expect(await readLedger()).toEqual([]);

  // alice is asked still, and her answer applies.
  await page.getByTestId("user-switch").selectOption("alice");
  await page.reload();
  await openThread(page, threadId);
  await approvalCard(page).getByRole("heading", { name: "Deploy to prod?" }).waitFor();
  await approve(page);
  await expect(cardStatus(page)).toHaveText("Applied.", { timeout: 20_000 });
  const ledger = await readLedger();
  expect(ledger.map((entry) => [entry.threadId, entry.args])).toEqual([[threadId, { target: "prod" }]]);
});
