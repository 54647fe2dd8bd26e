/**
 * zod for the rules the browser shares with the server. zod 4 compiles object schemas with `new Function` when it
 * can, and probes for that on the first parse; under the pages' Content-Security-Policy (no 'unsafe-eval') the
 * browser reports the probe as a violation even though zod catches it. So in a browser zod parses without
 * compiling; the server keeps the compiled parsers.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
