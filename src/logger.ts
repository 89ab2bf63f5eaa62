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

/**
 * Errors are logged by name and first line only: database errors carry the query's parameters
 * (order snapshots with customers' data) after the first line.
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message.split('\n')[0]}` : undefined;
  return { type: error.name, message: error.message.split('\n')[0]?.slice(0, 500), ...(cause ? { cause } : {}) };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { err: serializeError },
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
