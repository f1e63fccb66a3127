import { z } from "zod";

/** Where in a run a fault fires. */
export const FaultPoint = {
  /** Before anything is read or claimed: answer an HTTP status instead of a stream. */
  beforeResponse: "before-response",
  /** A resume was valid but the tool is unreachable: nothing claimed. */
  beforeClaim: "before-claim",
  /** Right after the claim ack. */
  afterClaim: "after-claim",
  /** While the tool executes: its side effect happened, its result is not stored. */
  midTool: "mid-tool",
  /** The model call after the tool: its result is stored. */
  afterTool: "after-tool",
  /** The next stream's connection closes after `afterEvents` frames; the run goes on. */
  midStream: "mid-stream",
  /**
   * A background poll submits tool outputs after the tool ran: `status` fails the
   * submission transiently (the poll answers that status), `fail` refuses it for good.
   */
  backgroundSubmit: "background-submit",
} as const;
export type FaultPoint = (typeof FaultPoint)[keyof typeof FaultPoint];

export const FaultAction = {
  /** The step fails: `RUN_ERROR` (and a rollback when something was claimed). */
  fail: "fail",
  /** The connection closes (`mid-stream` only). */
  drop: "drop",
  /** An HTTP status answers the request (`before-response` only). */
  status: "status",
  /** The server dies abruptly; the CLI exits with code 70 and restarts it. */
  crash: "crash",
  /**
   * The run pauses `delayMs` at the point, then goes on unharmed: a browser test
   * can reload while a request is in flight, after the claim ack, or after the tool ran.
   */
  delay: "delay",
} as const;
export type FaultAction = (typeof FaultAction)[keyof typeof FaultAction];

/** Points that apply to any `POST /agent`, not only to resumes. */
export const ANY_RUN_POINTS: ReadonlySet<FaultPoint> = new Set([
  FaultPoint.beforeResponse,
  FaultPoint.midStream,
]);

export const FaultSchema = z
  .object({
    point: z.enum(Object.values(FaultPoint) as [FaultPoint, ...FaultPoint[]]),
    action: z.enum(Object.values(FaultAction) as [FaultAction, ...FaultAction[]]),
    /** How many matching requests the fault fires on. */
    times: z.number().int().positive().default(1),
    status: z.number().int().min(400).max(599).optional(),
    retryAfterMs: z.number().int().nonnegative().optional(),
    afterEvents: z.number().int().nonnegative().optional(),
    delayMs: z.number().int().nonnegative().max(600_000).optional(),
    /** Only requests on this thread trigger the fault. */
    threadId: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((fault, ctx) => {
    if (
      fault.action === FaultAction.status &&
      fault.point !== FaultPoint.beforeResponse &&
      fault.point !== FaultPoint.backgroundSubmit
    ) {
      ctx.addIssue({
        code: "custom",
        message: 'action "status" needs point "before-response" or "background-submit"',
      });
    }
    if (fault.point === FaultPoint.beforeResponse && fault.action === FaultAction.fail) {
      ctx.addIssue({
        code: "custom",
        message: 'point "before-response" takes action "status", "delay" or "crash"',
      });
    }
    if (fault.action === FaultAction.drop && fault.point !== FaultPoint.midStream) {
      ctx.addIssue({ code: "custom", message: 'action "drop" needs point "mid-stream"' });
    }
    if (fault.point === FaultPoint.midStream && fault.action !== FaultAction.drop) {
      ctx.addIssue({ code: "custom", message: 'point "mid-stream" takes action "drop"' });
    }
  });
export type Fault = z.infer<typeof FaultSchema>;

export const ChaosRequestSchema = z.object({ faults: z.array(FaultSchema).min(1) });

/** How long a `delay` fault pauses. */
export function delayOf(fault: Fault): number {
  return fault.delayMs ?? 1000;
}
