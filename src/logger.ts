import { pino, type Logger } from 'pino';

export type { Logger };

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
export const SECRET_KEYS = [
  'GW_Token',
  'Token',
  'GW_Company',
  'Company',
  'authorization',
  'Authorization',
  'accessToken',
  'refreshToken',
  'access_token',
  'refresh_token',
  'password',
  'apiSecret',
  'encryptionKey',
  'credentials',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]),
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** A logger that writes nothing: for tests and tools that do not want output. */
export const silentLogger: Logger = pino({ level: 'silent' });
