// `npm run sandbox`: the sandbox gateway alone, for development and the demo.
// Options come from argv only: --port N (default 4100), --host H (default 127.0.0.1),
// --latency MS (time to answer every request), --seed N (fault PRNG seed).
import { parseArgs } from 'node:util';
import { DEFAULT_SANDBOX_AUTH_TOKEN, DEFAULT_SANDBOX_CREDENTIALS } from './sandbox-access.ts';
import { startPdfThread } from './pdf-thread.ts';
import { startSandboxServer } from './sandbox-server.ts';

interface MainOptions {
  port: number;
  host: string;
  latencyMs: number | undefined;
  seed: number | undefined;
}

/** Parse argv; throws with a usage line on a bad value. */
export function parseSandboxArgs(argv: string[]): MainOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4100' },
      host: { type: 'string', default: '127.0.0.1' },
      latency: { type: 'string' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  return {
    port: integer('--port', values.port, 0, 65535)!,
    host: values.host,
    latencyMs: integer('--latency', values.latency, 0, 600_000),
    seed: integer('--seed', values.seed, -(2 ** 31), 2 ** 32 - 1),
  };
}

function integer(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

async function main(): Promise<void> {
  let options: MainOptions;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error('usage: npm run sandbox -- [--port 4100] [--host 127.0.0.1] [--latency MS] [--seed N]');
    process.exitCode = 2;
    return;
  }
  const pdfThread = startPdfThread();
  const sandbox = await startSandboxServer({
    renderPdf: pdfThread.render,
    port: options.port,
    host: options.host,
    seed: options.seed,
    faults: options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs },
  });
  const c = DEFAULT_SANDBOX_CREDENTIALS;
  console.log(`Sandbox gateway listening: ${sandbox.url}`);
  console.log(`Authorization header: Bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}   (the bare token is accepted too)`);
  console.log(
    `Credentials: GW_Company=${c.GW_Company} GW_Token=${c.GW_Token} Id_Pac=${c.Id_Pac} Enterprise=${c.Enterprise} Company=${c.Company} Token=${c.Token}`,
  );
  console.log('  (any Token works except an empty one or one starting with "bad", which gets code 101)');
  console.log(`Faults: POST ${sandbox.url}/_sandbox/faults  e.g. {"rate5xx":0.2,"latencyMs":{"min":50,"max":500},"seed":7}`);
  console.log(`Issued documents: GET ${sandbox.url}/_sandbox/documents`);
  console.log(
    `Try: curl -s -X POST ${sandbox.url}/SendDocument -H 'Content-Type: application/json' ` +
      `-H 'Authorization: Bearer ${DEFAULT_SANDBOX_AUTH_TOKEN}' -d @test/fixtures/gateway/send-document-example.json`,
  );

  const stop = (): void => {
    void sandbox
      .close()
      .then(() => pdfThread.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.main) await main();
