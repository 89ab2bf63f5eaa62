// Draws the sandbox's PDFs on a worker thread. Drawing one takes milliseconds of CPU; on the sandbox's event
// loop that would hold back every other answer's timer, so a "200 ms" gateway would answer late.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { SandboxDocument } from './rules/gateway-fields.ts';
import { type PdfAuthorization, renderInvoicePdf } from './sandbox-pdf.ts';

export type PdfRenderer = (document: SandboxDocument, authorization: PdfAuthorization) => Promise<Uint8Array>;

interface Job {
  id: number;
  document: SandboxDocument;
  authorization: PdfAuthorization;
}
type Answer = { id: number; pdf: Uint8Array } | { id: number; error: string };

export interface PdfThread {
  render: PdfRenderer;
  close(): Promise<void>;
}

export function startPdfThread(): PdfThread {
  const worker = new Worker(new URL(import.meta.url));
  const waiting = new Map<number, { resolve: (pdf: Uint8Array) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  worker.on('message', (answer: Answer) => {
    const job = waiting.get(answer.id);
    waiting.delete(answer.id);
    if ('pdf' in answer) job?.resolve(answer.pdf);
    else job?.reject(new Error(answer.error));
  });
  worker.on('error', (error) => {
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  });
  // After the listeners (adding one refs the thread again): an idle thread does not keep the process alive.
  worker.unref();
  return {
    render: (document, authorization) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, document, authorization } satisfies Job);
      }),
    async close() {
      await worker.terminate();
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (job: Job) => {
    renderInvoicePdf(job.document, job.authorization).then(
      (pdf) => port.postMessage({ id: job.id, pdf } satisfies Answer, [pdf.buffer as ArrayBuffer]),
      (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  });
}
