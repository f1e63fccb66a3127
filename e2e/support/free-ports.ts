import { execFileSync } from "node:child_process";

// Ports of the test servers: the environment's when given, otherwise free ones, so two
// runs on one machine never meet. A config file cannot await, so a child Node picks them.
const pick = `
import { createServer } from "node:net";
const servers = await Promise.all(Array.from({ length: Number(process.argv[1]) }, () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  })));
process.stdout.write(servers.map((server) => server.address().port).join(","));
for (const server of servers) server.close();
`;

/** `count` distinct ports free on 127.0.0.1 (held together while picked, then let go). */
export function freePortsSync(count: number): number[] {
  if (count === 0) return [];
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", pick, String(count)], {
    encoding: "utf8",
  });
  return output.split(",").map(Number);
}

/**
 * The port each variable names; a variable left unset gets a free port, written back to
 * `process.env`. Playwright evaluates a config in the runner and again in every worker,
 * which inherits the runner's environment: the second reading finds the same ports.
 */
export function portsFromEnv<Name extends string>(names: readonly Name[]): Record<Name, number> {
  const missing = names.filter((name) => !process.env[name]);
  const picked = freePortsSync(missing.length);
  missing.forEach((name, index) => {
    process.env[name] = String(picked[index]);
  });
  return Object.fromEntries(names.map((name) => [name, Number(process.env[name])])) as Record<Name, number>;
}
