import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, test } from "vitest";
import { userEvent } from "vitest/browser";
import { DefaultApprovalCard } from "./default-approval-card";
import { FakeAgent } from "./test-util/fake-agent";
import { makeClient, renderWithClient } from "./test-util/render-client";
import { useApprovals } from "./use-approvals";
import { useThread } from "./use-thread";

const THREAD = "thread-keys";
const disposers: Array<() => void> = [];

afterEach(() => {
  cleanup();
  for (const dispose of disposers.splice(0)) dispose();
});

function Cards() {
  useThread(THREAD);
  return useApprovals(THREAD).map(({ interruptId }) => (
    <DefaultApprovalCard key={interruptId} threadId={THREAD} interruptId={interruptId} />
  ));
}

// Real key presses (not synthetic events): the browser's implicit submission is what answered.
test("Enter in an argument field answers nothing; the Approve button does", async () => {
  const agent = new FakeAgent();
  agent.seedDeployQuestion(THREAD);
  const client = makeClient(agent);
  disposers.push(() => client.dispose());
  renderWithClient(client, <Cards />);
  const target = await screen.findByRole("textbox", { name: /Target/ });

  await userEvent.fill(target, "eu-west");
  await userEvent.keyboard("{Enter}");
  expect(document.activeElement).toBe(target);
  expect(screen.getByTestId("approval-card").getAttribute("data-state")).toBe("unanswered");
  expect(client.outbox.getState().entries).toEqual([]);

  await userEvent.click(screen.getByRole("button", { name: "Approve with edits" }));
  await waitFor(() => expect(screen.getByTestId("approval-status").textContent).toBe("Applied."));
  expect(agent.count("resume")).toBe(1);
  expect(client.outbox.getState().entries.map((entry) => entry.decision)).toEqual([
    { kind: "approve", editedArgs: { target: "eu-west" } },
  ]);
});
