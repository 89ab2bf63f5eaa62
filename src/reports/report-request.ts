// What a request for a month's report says (the CLI's flags, the admin API's query), checked once for both: each
// problem names the field and what is wrong.
import { type ReportEnvironment, type ReportMonth, isReportEnvironment, parseReportMonth } from './report-month.ts';

export const REPORT_FORMATS = ['json', 'csv', 'xlsx', 'zip'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportRequest {
  month: ReportMonth;
  environment: ReportEnvironment;
  format: ReportFormat;
}

export type ReportRequestResult =
  { ok: true; request: ReportRequest } | { ok: false; field: 'month' | 'environment' | 'format'; error: string };

export function readReportRequest(
  input: { month: string | undefined; environment: string | undefined; format: string | undefined },
  now: Date,
): ReportRequestResult {
  if (input.month === undefined) return { ok: false, field: 'month', error: 'month is required (YYYY-MM)' };
  const month = parseReportMonth(input.month, now);
  if (!month.ok) return { ok: false, field: 'month', error: month.error };
  const environment = input.environment ?? 'produccion';
  if (!isReportEnvironment(environment)) return { ok: false, field: 'environment', error: 'environment must be produccion or pruebas' };
  const format = input.format ?? 'json';
  if (!(REPORT_FORMATS as readonly string[]).includes(format))
    return { ok: false, field: 'format', error: `format must be one of ${REPORT_FORMATS.join(', ')}` };
  return { ok: true, request: { month: month.month, environment, format: format as ReportFormat } };
}
