/**
 * The scripted agent's only skill: deploying a change behind an approval. No
 * model, so every run is deterministic and tests can count side effects.
 */
export const DEPLOY_TOOL = "deploy_change";

export const DEPLOY_TOOL_DESCRIPTION = "Deploy the current change to a target environment (needs approval).";

export const deployToolParameters = {
  type: "object",
  properties: { target: { type: "string", minLength: 1 } },
  required: ["target"],
  additionalProperties: false,
} as const;

/** What an answer to the deploy interrupt must look like. */
export const deployResponseSchema = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    editedArgs: deployToolParameters,
  },
  required: ["approved"],
  additionalProperties: false,
} as const;

export function asksToDeploy(text: string): boolean {
  return /\bdeploy/i.test(text);
}

/** "please deploy to prod" → prod; "deploy to staging" → staging; nothing named → staging. */
export function deployTarget(text: string): string {
  if (/\bprod(uction)?\b/i.test(text)) return "prod";
  if (/\bstaging\b/i.test(text)) return "staging";
  const named = /\bdeploy\b.*?\bto\s+([a-z0-9][a-z0-9_-]*)/i.exec(text)?.[1];
  return named?.toLowerCase() ?? "staging";
}

/**
 * Every target the message names, in order: "deploy to prod and staging" asks
 * for two deployments, so two approval-gated tool calls in one run.
 */
export function deployTargets(text: string): string[] {
  const named: string[] = [];
  for (const match of text.matchAll(/\b(prod(?:uction)?|staging)\b/gi)) {
    const target = (match[1] ?? "").toLowerCase().startsWith("prod") ? "prod" : "staging";
    if (!named.includes(target)) named.push(target);
  }
  return named.length > 0 ? named : [deployTarget(text)];
}

export function deployQuestion(target: string): string {
  return `Deploy to ${target}?`;
}

export function deployIntro(target: string): string {
  return `I can deploy this change to ${target}. I need your approval first.`;
}

export function deployIntroMany(targets: readonly string[]): string {
  return deployIntro(targets.join(" and ")).replace(
    " I need your approval first.",
    " I need your approval for each.",
  );
}

export function deployDone(target: string): string {
  return `Deployed to ${target}.`;
}

export const DEPLOY_REJECTED_TEXT = "Okay, I won't deploy.";
export const DEPLOY_CANCELLED_TEXT = "Deployment cancelled; nothing was deployed.";
export const SMALL_TALK_TEXT = 'I can deploy changes for you. Try "please deploy to prod".';

export interface DeployAnswer {
  readonly approved: boolean;
  readonly editedArgs?: Readonly<Record<string, unknown>>;
}

/** Reads an answer that already passed {@link deployResponseSchema}. */
export function readDeployAnswer(payload: unknown): DeployAnswer {
  const record = payload as { approved: boolean; editedArgs?: Record<string, unknown> };
  return record.editedArgs === undefined
    ? { approved: record.approved }
    : { approved: record.approved, editedArgs: record.editedArgs };
}

/** Edited arguments replace the proposed ones key by key. */
export function effectiveArgs(
  proposed: Readonly<Record<string, unknown>>,
  answer: DeployAnswer,
): Record<string, unknown> {
  return { ...proposed, ...(answer.editedArgs ?? {}) };
}

/** The "side effect": a deterministic receipt. */
export function deployReceipt(args: Readonly<Record<string, unknown>>): string {
  return JSON.stringify({ deployed: true, target: args.target });
}
