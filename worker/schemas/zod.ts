// zod for every schema the SPA builds (and these shared ones): each imports `z` from here, so the
// setting below runs before any schema exists. Without it zod probes `new Function` when it builds
// an object schema, and the shop's CSP (script-src 'self', no 'unsafe-eval') reports that probe as a
// violation in the browser; the Worker never compiles schemas anyway (zod skips it on Cloudflare).
import { z } from 'zod';

z.config({ jitless: true });

export { z };
