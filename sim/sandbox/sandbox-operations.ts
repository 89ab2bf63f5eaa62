// The gateway operations the sandbox serves (docs/gateway-api.md).
export const SANDBOX_OPERATIONS = ['SendDocument', 'DownloadPDF', 'StatusDocument'] as const;
export type SandboxOperation = (typeof SANDBOX_OPERATIONS)[number];

export function isOperation(name: string): name is SandboxOperation {
  return (SANDBOX_OPERATIONS as readonly string[]).includes(name);
}
