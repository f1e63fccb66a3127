// Fault schedules drawn from a seed: server faults for the answer's delivery, and what the
// person's browser does meanwhile (offline flaps, reloads, a second tab, closing a tab).
import type { Fault } from "../support/mock-control";
import { mulberry32, type Random } from "./prng";

export type Decision = "approve" | "approve-edited" | "reject";

export type Step =
  | { readonly kind: "wait"; readonly ms: number }
  | { readonly kind: "offline"; readonly ms: number }
  | { readonly kind: "reload"; readonly tab: number }
  | { readonly kind: "close-first-tab" };

/** The server the schedule runs against: the contract, or an emulation of a server without it. */
export type SoakServer = "fixed" | "af-legacy" | "af-lifecycle";

export interface Schedule {
  readonly seed: number;
  /** "fixed" is the contract; the af-* schedules ask two questions of a server without it. */
  readonly server: SoakServer;
  readonly decision: Decision;
  /** Open a second tab of the same browser before answering. */
  readonly secondTab: boolean;
  /** The tab the person answers in (0 or 1). */
  readonly answerIn: number;
  /** Questions the run asks: 2 is "deploy to prod and staging", answered in one resume. */
  readonly questions: 1 | 2;
  /** `GET /agent/capabilities` fails this many times when the page starts. */
  readonly capabilityFailures: number;
  /** Server faults for this thread, queued once the question is on screen. */
  readonly faults: readonly Omit<Fault, "threadId">[];
  /** What the browser does right after the answer is on disk, in order. */
  readonly steps: readonly Step[];
}

type FaultDraw = (random: Random) => Omit<Fault, "threadId">;

// Every point the contract names, with every action that applies there.
const FAULTS: readonly FaultDraw[] = [
  (r) => ({
    point: "before-response",
    action: "status",
    status: r.pick([429, 503]),
    retryAfterMs: r.int(0, 1000),
  }),
  (r) => ({ point: "before-response", action: "delay", delayMs: r.int(100, 1000) }),
  () => ({ point: "before-response", action: "crash" }),
  () => ({ point: "before-claim", action: "fail" }),
  (r) => ({ point: "before-claim", action: "delay", delayMs: r.int(100, 1000) }),
  () => ({ point: "before-claim", action: "crash" }),
  () => ({ point: "after-claim", action: "fail" }),
  (r) => ({ point: "after-claim", action: "delay", delayMs: r.int(100, 1000) }),
  () => ({ point: "after-claim", action: "crash" }),
  () => ({ point: "mid-tool", action: "fail" }),
  (r) => ({ point: "mid-tool", action: "delay", delayMs: r.int(100, 1000) }),
  () => ({ point: "mid-tool", action: "crash" }),
  () => ({ point: "after-tool", action: "fail" }),
  (r) => ({ point: "after-tool", action: "delay", delayMs: r.int(100, 1000) }),
  () => ({ point: "after-tool", action: "crash" }),
  (r) => ({ point: "mid-stream", action: "drop", afterEvents: r.int(1, 6) }),
];

// Faults both emulations of servers without the contract answer as their releases do;
// crashes are left to the contract, whose recovery the soak is about.
const DEGRADED_FAULTS: readonly FaultDraw[] = [
  (r) => ({ point: "before-response", action: "status", status: 503, retryAfterMs: r.int(0, 1000) }),
  (r) => ({ point: "before-response", action: "delay", delayMs: r.int(100, 1000) }),
  (r) => ({ point: "mid-stream", action: "drop", afterEvents: r.int(1, 6) }),
];

/**
 * About one schedule in eight asks two questions of a server without the contract.
 * Drawn from a stream of its own, so every other schedule of a seed is the one it
 * was before these existed.
 */
function drawServer(seed: number): { server: SoakServer; faults: Omit<Fault, "threadId">[] } | undefined {
  const random = mulberry32((seed ^ 0x5bd1e995) >>> 0);
  if (!random.chance(0.125)) return undefined;
  const server = random.pick<SoakServer>(["af-legacy", "af-lifecycle"]);
  const faults = Array.from({ length: random.int(0, 2) }, () => random.pick(DEGRADED_FAULTS)(random));
  return { server, faults };
}

export function drawSchedule(seed: number): Schedule {
  const random = mulberry32(seed);
  const decision = random.pick<Decision>(["approve", "approve", "approve", "approve-edited", "reject"]);
  const secondTab = random.chance(0.35);
  const answerIn = secondTab ? random.int(0, 1) : 0;
  const questions = random.chance(0.3) ? 2 : 1;
  const capabilityFailures = random.chance(0.25) ? random.int(1, 2) : 0;
  const faults = Array.from({ length: random.int(0, 3) }, () => random.pick(FAULTS)(random));
  const steps: Step[] = [];
  let firstOpen = true;
  for (let i = random.int(0, 3); i > 0; i -= 1) {
    const roll = random.next();
    if (roll < 0.3) steps.push({ kind: "wait", ms: random.int(0, 1000) });
    else if (roll < 0.47) steps.push({ kind: "offline", ms: random.int(200, 1200) });
    // A long offline period: longer than the backoff cap, so the answer waits past it.
    else if (roll < 0.55) steps.push({ kind: "offline", ms: random.int(5_000, 35_000) });
    else if (secondTab && firstOpen && roll < 0.7) {
      steps.push({ kind: "close-first-tab" });
      firstOpen = false;
    } else steps.push({ kind: "reload", tab: secondTab && (!firstOpen || random.chance(0.5)) ? 1 : 0 });
  }
  const degraded = drawServer(seed);
  // af-legacy's questions declare no `editedArgs` (1.0.1 reads edits as flat keys), so the card
  // offers no argument editor there: the person can only approve as proposed.
  const asked = degraded?.server === "af-legacy" && decision === "approve-edited" ? "approve" : decision;
  if (degraded)
    return {
      seed,
      decision: asked,
      secondTab,
      answerIn,
      capabilityFailures,
      steps,
      ...degraded,
      questions: 2,
    };
  return {
    seed,
    server: "fixed",
    decision,
    secondTab,
    answerIn,
    questions,
    capabilityFailures,
    faults,
    steps,
  };
}

/** One line for a log: enough to see what a schedule did. */
export function describeSchedule(schedule: Schedule): string {
  const faults = schedule.faults.map((fault) => `${fault.point}/${fault.action}`).join(",") || "none";
  const steps =
    schedule.steps
      .map((step) =>
        step.kind === "wait" || step.kind === "offline"
          ? `${step.kind}:${step.ms}`
          : step.kind === "reload"
            ? `reload:${step.tab}`
            : step.kind,
      )
      .join(",") || "none";
  const questions = schedule.questions === 2 ? "2 questions, " : "";
  const capabilities =
    schedule.capabilityFailures > 0 ? `; capabilities fail ×${schedule.capabilityFailures}` : "";
  const server = schedule.server === "fixed" ? "" : `${schedule.server}, `;
  return `seed ${schedule.seed}: ${server}${questions}${schedule.decision} in tab ${schedule.answerIn}${schedule.secondTab ? " of 2" : ""}; faults ${faults}; steps ${steps}${capabilities}`;
}
