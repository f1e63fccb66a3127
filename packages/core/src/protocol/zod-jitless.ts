import { z } from "zod/mini";

// The SDK runs under Content-Security-Policies without 'unsafe-eval'. zod probes
// `new Function` for its JIT as soon as object schemas are built (which
// `@ag-ui/core/schemas` and our own schema modules do at import), and a strict
// policy reports that probe as a violation. Jitless mode skips it; every module
// that builds schemas imports this one first, so the setting is in place before
// any schema exists. Validation stays the same, only interpreted instead of
// compiled. package.json lists this module under `sideEffects`, so bundlers keep
// those bare imports; the importers themselves stay side-effect free and drop out
// of a bundle that does not use them (ag-ui.ts and its classic-zod schemas).
z.config({ jitless: true });
