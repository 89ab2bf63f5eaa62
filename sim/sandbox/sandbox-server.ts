// The sandbox gateway over HTTP (Express 5): the three documented operations under the base path,
// plus sandbox-only control endpoints under `{basePath}/_sandbox/` (no Authorization, never faulty):
//   GET  /_sandbox/faults     → { faults, stats }
//   POST /_sandbox/faults     JSON FaultConfig, replaces the current one → { faults, stats } (400 if invalid)
//   GET  /_sandbox/stats      → stats
//   GET  /_sandbox/documents  → { documents: IssuedDocumentSummary[] }
// HTTP statuses: 200 for every gateway answer (the code is in the body), 401 for a bad Authorization
// header, 400 for malformed JSON or a body that is not JSON, 404 for an unknown operation,
// 500/502/503 with HTML only when injected.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { SandboxGateway, type SandboxGatewayOptions, type SandboxReply } from './sandbox-gateway.ts';
import { isOperation } from './sandbox-operations.ts';

export const DEFAULT_SANDBOX_BASE_PATH = '/api/v1/GFGatewayEB';

export interface SandboxServerOptions extends SandboxGatewayOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  basePath?: string;
  /** Use this gateway instead of building one from the options. */
  gateway?: SandboxGateway;
}

export interface RunningSandbox {
  /** Base URL including the base path, e.g. http://127.0.0.1:4100/api/v1/GFGatewayEB */
  url: string;
  gateway: SandboxGateway;
  close(): Promise<void>;
}

export interface SandboxApp {
  app: express.Express;
  /** Cancel answers still waiting on an injected delay (call before closing the server). */
  cancelPending(): void;
}

/** The Express app for a gateway; mountable in another app or served alone by startSandboxServer. */
export function createSandboxApp(gateway: SandboxGateway, basePath = DEFAULT_SANDBOX_BASE_PATH): SandboxApp {
  const app = express();
  app.disable('x-powered-by');
  const pending = new Set<NodeJS.Timeout>();
  const base = basePath.replace(/\/+$/, '');
  const control = `${base}/_sandbox`;

  app.use(express.json({ limit: '20mb' }));

  app.get(`${control}/faults`, (_req, res) => {
    res.json({ faults: gateway.faults(), stats: gateway.stats() });
  });
  app.post(`${control}/faults`, (req, res) => {
    try {
      const faults = gateway.setFaults(req.body ?? {});
      res.json({ faults, stats: gateway.stats() });
    } catch (error) {
      res.status(400).json({ code: '400', result: 'error', message: `Configuración de fallos inválida: ${describe(error)}` });
    }
  });
  app.get(`${control}/stats`, (_req, res) => {
    res.json(gateway.stats());
  });
  app.get(`${control}/documents`, (_req, res) => {
    res.json({ documents: gateway.documents() });
  });

  app.post(`${base}/:operation`, async (req, res) => {
    const arrived = performance.now();
    const operation = req.params.operation as string;
    if (!isOperation(operation)) {
      res.status(404).json({ code: '404', result: 'error', message: `Operación desconocida: ${operation}` });
      return;
    }
    if (req.body === undefined) {
      res.status(400).json({ code: '400', result: 'error', message: 'Se esperaba un cuerpo JSON (Content-Type: application/json)' });
      return;
    }
    const reply = await gateway.handle(operation, req.body, req.get('authorization'));
    // The latency is the time to answer, the gateway's own work included (as a client measures it).
    answerLater({ ...reply, delayMs: reply.delayMs - (performance.now() - arrived) }, req, res, pending);
  });

  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: '404', result: 'error', message: 'Ruta desconocida' });
  });
  // Express 5 passes JSON parse failures (400) and body-size failures (413) here.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = httpStatusOf(error);
    const message = status === 400 ? 'JSON mal formado' : status === 413 ? 'Cuerpo demasiado grande' : 'Error interno del sandbox';
    res.status(status).json({ code: String(status), result: 'error', message });
  });

  return {
    app,
    cancelPending: () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
}

/** Start a sandbox gateway on HTTP; resolves once it listens. */
export async function startSandboxServer(options: SandboxServerOptions = {}): Promise<RunningSandbox> {
  const gateway = options.gateway ?? new SandboxGateway(options);
  const basePath = options.basePath ?? DEFAULT_SANDBOX_BASE_PATH;
  const { app, cancelPending } = createSandboxApp(gateway, basePath);
  const server = createServer(app);
  await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}${basePath.replace(/\/+$/, '')}`,
    gateway,
    close: async () => {
      cancelPending();
      const closed = new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      // Keep-alive and still-delayed sockets would keep close() waiting forever.
      server.closeAllConnections();
      await closed;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Apply the reply after its delay; an aborted client's socket is left alone. */
function answerLater(reply: SandboxReply, req: Request, res: Response, pending: Set<NodeJS.Timeout>): void {
  const send = (): void => {
    if (req.socket.destroyed || res.writableEnded) return;
    if (reply.kind === 'drop') {
      req.socket.destroy();
    } else if (reply.kind === 'html') {
      res.status(reply.status).type('text/html').send(reply.body);
    } else {
      res.status(reply.status).json(reply.body);
    }
  };
  if (reply.delayMs <= 0) {
    send();
    return;
  }
  const timer = setTimeout(() => {
    pending.delete(timer);
    send();
  }, reply.delayMs);
  pending.add(timer);
}

function httpStatusOf(error: unknown): number {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray(error.issues)) {
    return error.issues
      .map((i: { path?: unknown[]; message?: string }) => `${(i.path ?? []).join('.') || '(raíz)'}: ${i.message}`)
      .join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}
