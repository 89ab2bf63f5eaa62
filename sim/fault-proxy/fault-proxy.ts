// A fault-injecting proxy over HTTP: put it between the app and the sandbox gateway (or the store simulator) and it
// passes every request through, except those its rules pick, whose answers it trickles, stalls, inflates, or
// replaces with the lies a misbehaving gateway tells (another document's PDF, a fake or borrowed CUFE, 201 to
// everything, secrets echoed in a message). Written from docs/gateway-api.md; it knows nothing of the app.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  cufeNamingOtherNumber,
  echoSecretsAnswer,
  errorAnswer,
  parseJson,
  requestedNumber,
  streamHuge,
  trickle,
  withCufe,
} from './fault-answers.ts';
import { type Fault, type FaultRule, type ProxiedRequest, RuleBook } from './fault-rules.ts';

export type { Fault, FaultRule, ProxiedRequest } from './fault-rules.ts';

export interface FaultProxyOptions {
  /** Where requests go: an origin with an optional base path, e.g. the sandbox's URL. */
  upstream: string;
  host?: string;
}

export interface RunningFaultProxy {
  /** The upstream's URL with the proxy's origin: use it where the upstream's would go. */
  readonly url: string;
  readonly origin: string;
  /** Replace the rules (an empty list passes everything through). */
  setRules(rules: readonly FaultRule[]): void;
  /** Every request seen, oldest first. */
  readonly requests: readonly ProxiedRequest[];
  /** Requests whose answer is still being sent or held open. */
  openAnswers(): number;
  close(): Promise<void>;
}

interface Upstream {
  status: number;
  body: Buffer;
  contentType: string;
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startFaultProxy(options: FaultProxyOptions): Promise<RunningFaultProxy> {
  const upstream = new URL(options.upstream);
  const rules = new RuleBook();
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  /** The last PDF answer seen per document, for "another document's PDF". */
  const pdfAnswers = new Map<string, Buffer>();
  let firstCufe: string | undefined;
  let open = 0;

  async function forward(req: IncomingMessage, body: Buffer): Promise<Upstream> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_HEADERS.has(name) && typeof value === 'string') headers[name] = value;
    }
    const path = req.url ?? '/';
    const target = `${upstream.origin}${path}`;
    const answer = await fetch(target, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
    });
    return {
      status: answer.status,
      body: Buffer.from(await answer.arrayBuffer()),
      contentType: answer.headers.get('content-type') ?? 'application/json',
    };
  }

  function remember(operation: string, request: Record<string, unknown> | undefined, answer: Upstream): void {
    const text = answer.body.toString('utf8');
    if (operation === 'SendDocument' && firstCufe === undefined) {
      const cufe = parseJson(text)?.cufe;
      if (typeof cufe === 'string' && cufe.length === 66) firstCufe = cufe;
    }
    if (operation === 'DownloadPDF' && parseJson(text)?.code === '200') {
      const key = requestedNumber(request);
      if (key) pdfAnswers.set(key, answer.body);
    }
  }

  function send(res: ServerResponse, status: number, body: string | Buffer, contentType = 'application/json'): void {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const text = body.toString('utf8');
    const operation = (req.url ?? '').split('?')[0]!.split('/').filter(Boolean).pop() ?? '';
    const fault: Fault | undefined = rules.take(operation, text);
    requests.push({ operation, fault: fault?.kind, at: Date.now() });
    const request = parseJson(text);

    // Faults the proxy answers alone.
    if (fault?.kind === 'code') return send(res, 200, errorAnswer(fault.code, fault.message ?? 'error processing the request'));
    if (fault?.kind === 'answer') return send(res, 200, JSON.stringify(fault.body));
    if (fault?.kind === 'echo_secrets') return send(res, 200, echoSecretsAnswer(String(req.headers.authorization ?? ''), request));
    if (fault?.kind === 'huge') return streamHuge(res, fault.bytes, fault.shape ?? 'pdf');

    const answer = await forward(req, body);
    const otherPdf = fault?.kind === 'other_pdf' ? anotherPdf(request) : undefined;
    remember(operation, request, answer);
    const status = answer.status;
    switch (fault?.kind) {
      case undefined:
        return send(res, status, answer.body, answer.contentType);
      case 'lose_answer':
        res.socket?.destroy();
        return;
      case 'trickle':
        return trickle(res, status, answer.body, fault.tickMs ?? 1000, fault.bytesPerTick ?? 1);
      case 'stall':
        res.writeHead(status, { 'content-type': answer.contentType, 'content-length': String(answer.body.length) });
        res.write(answer.body.subarray(0, Math.min(fault.afterBytes ?? 10, answer.body.length - 1)));
        return;
      case 'other_pdf':
        return send(res, status, otherPdf ?? answer.body);
      case 'fake_cufe':
        return send(
          res,
          status,
          withCufe(answer.body.toString('utf8'), () => fault.cufe ?? 'X'.repeat(66)),
        );
      case 'cufe_other_number':
        return send(
          res,
          status,
          withCufe(answer.body.toString('utf8'), (c) => cufeNamingOtherNumber(c, fault.numberOffset ?? 1000)),
        );
      case 'duplicate_cufe':
        return send(
          res,
          status,
          withCufe(answer.body.toString('utf8'), (c) => firstCufe ?? c),
        );
    }
  }

  /** The PDF answer of a document other than the one asked for, if the proxy has seen one. */
  function anotherPdf(request: Record<string, unknown> | undefined): Buffer | undefined {
    const asked = requestedNumber(request);
    for (const [key, pdf] of pdfAnswers) if (key !== asked) return pdf;
    return undefined;
  }

  const server: Server = createServer((req, res) => {
    open++;
    res.once('close', () => open--);
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 502, JSON.stringify({ error: 'upstream unreachable' }));
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `${origin}${upstream.pathname.replace(/\/+$/, '')}`,
    origin,
    setRules: (list) => rules.set(list),
    requests,
    openAnswers: () => open,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
