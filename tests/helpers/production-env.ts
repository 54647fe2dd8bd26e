/**
 * The least a production server (PUBLIC_PROTOCOL=https) needs to start (api/config.ts `productionRefusals`):
 * its public host, a random secret, a mail server and a sender at its domain. Tests spread it and change
 * what they are about. No test server runs the mail worker, so the SMTP address is never dialled.
 */
export const PRODUCTION_ENV = {
  PUBLIC_PROTOCOL: 'https',
  PUBLIC_HOST: 'courses.example',
  APP_SECRET: 'k3X9vQ2mR7tY4wZ8pL1nB6cF0hJ5sD3gA9eU2iO7',
  SMTP_URL: 'smtp://mail.courses.example:587',
  MAIL_FROM: 'Courses <no-reply@courses.example>',
} as const;
