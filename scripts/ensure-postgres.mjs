// The server library's Postgres store and replica tests start a real Postgres of their own
// (initdb + pg_ctl in a temporary folder). Where none is installed and apt can install one,
// install Debian's package without its default cluster (nothing is left running); where
// that is not possible, those tests skip with the one line this returns.
import { execSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = "/usr/lib/postgresql";

function installed() {
  return existsSync(root) && readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`));
}

/** Undefined when Postgres can be started here, else why not. */
export function ensurePostgres() {
  if (installed()) return undefined;
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    return "Postgres unavailable (no initdb under /usr/lib/postgresql/*/bin, and apt-get cannot install it here)";
  }
  console.log("Installing Debian's Postgres (apt-get install postgresql, no default cluster)…");
  try {
    execSync(
      "mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf" +
        " && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql",
      { stdio: "inherit", shell: "/bin/bash" },
    );
  } catch {
    return "Postgres unavailable (apt-get install postgresql failed)";
  }
  return installed() ? undefined : "Postgres unavailable (installed, but no initdb found)";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reason = ensurePostgres();
  if (reason) {
    console.log(reason);
    process.exitCode = 3;
  }
}
