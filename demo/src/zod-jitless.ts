import { z } from "zod";

// The page runs under a Content-Security-Policy without 'unsafe-eval'. zod probes
// `new Function` for its JIT the first time it parses an object, which the policy
// reports as a violation; jitless mode skips the probe. This module is imported
// first so the setting is in place before any other module parses anything.
z.config({ jitless: true });
