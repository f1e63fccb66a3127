import { z } from "zod/mini";

// The SDK runs under Content-Security-Policies without 'unsafe-eval'. zod's classic
// object schemas probe `new Function` for their JIT as soon as they are built (which
// `@ag-ui/core/schemas` does at import, for servers and tests using ag-ui.ts), and a
// strict policy reports that probe as a violation. Jitless mode skips it. The SDK's
// runtime builds zod/mini schemas, which never compile, yet every schema module
// imports this one first all the same: the setting is in place before any schema
// exists, whichever flavour a module uses. Validation stays the same, only
// interpreted instead of compiled. package.json lists this module under
// `sideEffects`, so bundlers keep those bare imports; the importers themselves stay
// side-effect free and drop out of a bundle that does not use them.
z.config({ jitless: true });
