import type { OutboxEntry } from "@agui-outbox/core";
import type { ReactNode } from "react";
import { styles } from "./devtools-styles";
import { clockTime, errorText } from "./format";
import type { TimelineStep } from "./timeline";

function Fact(props: { term: string; children: ReactNode; testId?: string }): ReactNode {
  return (
    <>
      <dt style={styles.term}>{props.term}</dt>
      <dd style={styles.value} data-testid={props.testId}>
        {props.children}
      </dd>
    </>
  );
}

function stepText(step: TimelineStep): string {
  const parts = [clockTime(step.at), step.what];
  if (step.attempts > 0) parts.push(`attempt ${step.attempts}`);
  if (step.what === "retry_wait" && step.nextAttemptAt !== null)
    parts.push(`next try ${clockTime(step.nextAttemptAt)}`);
  if (step.rule !== null) parts.push(`rule ${step.rule}`);
  if (step.error !== null && step.what !== "answered") parts.push(errorText(step.error));
  if (step.source === "stored") parts.push("(from the stored entry)");
  return parts.join(" · ");
}

/** One entry: where it is, why, and every transition this page knows of. */
export function EntryInspector(props: { entry: OutboxEntry; timeline: readonly TimelineStep[] }): ReactNode {
  const { entry, timeline } = props;
  return (
    <article style={styles.entry} data-testid="inspector-entry" data-key={entry.key} data-state={entry.state}>
      <h3 style={styles.subheading}>
        {entry.threadId} / {entry.interruptId}
      </h3>
      <dl style={styles.facts}>
        <Fact term="Key">{entry.key}</Fact>
        <Fact term="Decision">{entry.decision.kind}</Fact>
        <Fact term="State" testId="inspector-state">
          {entry.state}
        </Fact>
        <Fact term="Attempts" testId="inspector-attempts">
          {entry.attempts}
        </Fact>
        <Fact term="Next try">{entry.nextAttemptAt === null ? "none" : clockTime(entry.nextAttemptAt)}</Fact>
        <Fact term="Last error" testId="inspector-error">
          {errorText(entry.lastError)}
        </Fact>
        <Fact term="Rule" testId="inspector-rule">
          {entry.rule ?? "none yet"}
        </Fact>
        <Fact term="Detail">{entry.verdictDetail ?? "none"}</Fact>
      </dl>
      <h4 style={styles.minor}>Timeline</h4>
      <ol style={styles.steps} aria-label={`Timeline of ${entry.interruptId}`}>
        {timeline.map((step, index) => (
          // Steps are appended, never reordered: the index is a stable key.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <li key={index} data-testid="inspector-step" data-what={step.what}>
            {stepText(step)}
          </li>
        ))}
      </ol>
    </article>
  );
}
