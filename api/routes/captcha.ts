import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { createCaptchaChallenge } from '../captcha/index.ts';

/**
 * GET /api/captcha/challenge → an ALTCHA challenge `{algorithm, challenge, maxnumber, salt, signature}`
 * for the enquiry and waitlist forms' invisible captcha; never cached.
 * Failure → captcha/failed-to-generate (500).
 */
export function captchaRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/captcha/challenge', async (c) => {
    const challenge = await createCaptchaChallenge(c.var.deps);
    c.header('cache-control', 'no-store');
    return c.json(challenge);
  });
  return app;
}
