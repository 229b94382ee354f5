import { config } from 'zod/v4/core';

// The panel runs under a Content-Security-Policy without 'unsafe-eval' (server/http/security-headers.ts): zod's
// compiled fast path would probe `new Function` and be reported as a violation. The server keeps the fast path.
// Imported for its effect by what brings zod into the panel (App, the login form's rules), before any check runs.
config({ jitless: true });
