// The sandbox keeps the DGI's test and production registries apart (docs/series.md): a number authorized in one
// environment is free in the other, 102 only within one; DownloadPDF and StatusDocument, which name no environment,
// find the latest document filed under the rest of the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandboxServer } from '../../../sim/sandbox/sandbox-server.ts';
import { documentData, listDocuments, post, sendRequest } from '../../support/sandbox-requests.ts';

describe('the sandbox per environment', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandboxServer({ seed: 27 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('the same number once in test and once in production; 102 again within either', async () => {
    const test = sendRequest((r) => (r.environment = '2'));
    const production = { ...structuredClone(test), environment: '1' };
    const first = await post(sandbox.url, 'SendDocument', test);
    expect(first.json.code).toBe('200');
    const second = await post(sandbox.url, 'SendDocument', production);
    expect(second.json.code).toBe('200');
    expect(second.json.cufe).not.toBe(first.json.cufe);
    expect((await post(sandbox.url, 'SendDocument', production)).json.code).toBe('102');
    expect((await post(sandbox.url, 'SendDocument', test)).json.code).toBe('102');
    const number = test.document.dataTransaction.numberDocumentFiscal;
    const filed = (await listDocuments(sandbox.url)).filter((d) => d.numberDocumentFiscal === number);
    expect(filed.map((d) => d.environment)).toEqual(['2', '1']);

    // Looked up without an environment: the latest, production's.
    const status = await post(sandbox.url, 'StatusDocument', documentData(test, false));
    expect(status.json.code).toBe('200');
    const pdf = await post(sandbox.url, 'DownloadPDF', documentData(test, true));
    expect(pdf.json.code).toBe('200');
  });
});
