// The conformance CLI as a person installs it: built, packed, installed from its tarball
// (with the core's) into a fresh folder, and run with `npx` against a running mock server.
// Part of scripts/consumer-test.mjs, which passes its helpers in.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Resolves when the tarball is clean (contents, publint, attw) and
 * `npx agui-outbox-conformance` from it judges the mock at
 * `mockUrl` (contract mode) and its last line is `N passed, 0 failed`.
 */
export async function conformanceFromTarball({ repo, work, exec, coreTarball, mockUrl }) {
  await exec(`${repo}node_modules/.bin/tsdown`, [], { cwd: `${repo}packages/conformance` });
  const [packed] = JSON.parse(
    await exec(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", work, "-w", "@agui-outbox/conformance"],
      { cwd: repo },
    ),
  );
  const stray = packed.files
    .map((file) => file.path)
    .filter((path) => !/^(dist\/.+|README\.md|LICENSE|package\.json)$/.test(path));
  if (stray.length > 0) throw new Error(`@agui-outbox/conformance also ships ${stray.join(", ")}`);
  const tarball = join(work, packed.filename);
  const linted = await exec(`${repo}node_modules/.bin/publint`, [tarball, "--strict"]);
  if (!/All good!/.test(linted)) throw new Error(linted);
  await exec(`${repo}node_modules/.bin/attw`, [tarball, "--profile", "esm-only"]);
  const dir = join(work, "conformance");
  mkdirSync(dir, { recursive: true });
  // The core's tarball too: the registry may not have this version of it yet.
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "consumer-conformance",
      private: true,
      dependencies: {
        "@agui-outbox/core": `file:${coreTarball}`,
        "@agui-outbox/conformance": `file:${tarball}`,
      },
    }),
  );
  await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
  });
  const output = await exec(
    "npx",
    [
      "--no-install",
      "agui-outbox-conformance",
      `${mockUrl}/agent`,
      "--ledger",
      `${mockUrl}/__ledger`,
      "--chaos",
      `${mockUrl}/__chaos`,
    ],
    { cwd: dir },
  );
  const last = output.trim().split("\n").at(-1) ?? "";
  if (!/^\d+ passed, 0 failed$/.test(last)) throw new Error(`the CLI ended "${last}"\n${output}`);
}
