import type { Interrupt, InterruptResolveFn } from "@copilotkit/react-core/v2";
import { useState } from "react";

/** An ordinary CopilotKit interrupt card: nothing in it knows about the outbox. */
export function ApprovalCard({
  interrupt,
  resolve,
}: {
  interrupt: Interrupt | null;
  resolve: InterruptResolveFn;
}) {
  const [target, setTarget] = useState("");
  const [answered, setAnswered] = useState(false);
  if (!interrupt) return null;
  const answer = (payload: Record<string, unknown>) => {
    setAnswered(true);
    void resolve(payload, interrupt.id);
  };
  return (
    <article data-testid="approval-card" aria-label="Approval">
      <p>{interrupt.message ?? "The agent asks for approval."}</p>
      <label>
        Target{" "}
        <input
          data-testid="edit-target"
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          placeholder="as proposed"
        />
      </label>
      <button
        type="button"
        disabled={answered}
        onClick={() => answer(target ? { approved: true, editedArgs: { target } } : { approved: true })}
      >
        Approve
      </button>
      <button type="button" disabled={answered} onClick={() => answer({ approved: false })}>
        Reject
      </button>
    </article>
  );
}
