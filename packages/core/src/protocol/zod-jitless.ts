import { z } from "zod/mini";

// The SDK runs under Content-Security-Policies without 'unsafe-eval'. zod probes
// `new Function` for its JIT as soon as object schemas are built (which
// `@ag-ui/core/schemas` does at import), and a strict policy reports that probe
// as a violation. Jitless mode skips it; this module is imported before any
// schema module so the setting is in place first. Validation stays the same,
// only interpreted instead of compiled. package.json lists this module and its
// importer (ag-ui.ts) under `sideEffects`: bundlers drop a bare import unless
// both are marked.
z.config({ jitless: true });
