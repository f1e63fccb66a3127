// Shared by `npm run demo` and `npm run example:copilotkit`: keeps the started
// processes together (one exits or Ctrl-C: all stop) and waits until each URL answers.

/** Polls `url` until it answers 2xx: true, or false after a minute. */
export async function waitFor(url) {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // Not up yet: the next poll asks again.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/**
 * Ties `children` together and resolves once every URL answers; when one does not,
 * prints `failure` and stops them all with exit code 1.
 */
export async function superviseUntilReady(children, urls, failure) {
  const stopAll = (code) => {
    for (const child of children) child.kill("SIGTERM");
    process.exit(code);
  };
  process.on("SIGINT", () => stopAll(0));
  process.on("SIGTERM", () => stopAll(0));
  for (const child of children) child.on("exit", (code) => stopAll(code ?? 1));
  for (const url of urls) {
    if (await waitFor(url)) continue;
    console.error(failure);
    stopAll(1);
  }
}
