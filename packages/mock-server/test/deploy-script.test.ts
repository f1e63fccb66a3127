import { expect, test } from "vitest";
import { deployTarget, deployTargets, effectiveArgs } from "../src/agent/deploy-script";

test("targets are read from the message; nothing named means staging", () => {
  expect(deployTarget("please deploy to prod")).toBe("prod");
  expect(deployTarget("Deploy to PRODUCTION now")).toBe("prod");
  expect(deployTarget("deploy to staging")).toBe("staging");
  expect(deployTarget("deploy it")).toBe("staging");
  expect(deployTarget("deploy the branch to canary")).toBe("canary");
  expect(deployTargets("deploy to prod and staging")).toEqual(["prod", "staging"]);
  expect(deployTargets("deploy to prod, prod and prod")).toEqual(["prod"]);
});

test("edited arguments replace the proposed ones key by key", () => {
  expect(effectiveArgs({ target: "prod" }, { approved: true })).toEqual({ target: "prod" });
  expect(effectiveArgs({ target: "prod" }, { approved: true, editedArgs: { target: "qa" } })).toEqual({
    target: "qa",
  });
});
