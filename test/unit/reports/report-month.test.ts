import { describe, expect, it } from 'vitest';
import { panamaDate, panamaMonthOf, parseReportMonth, previousPanamaMonth } from '../../../src/reports/report-month.ts';

const NOW = new Date('2026-12-10T12:00:00Z');

describe('the report month (Panamá time, UTC−5)', () => {
  it('runs from 00:00 of the 1st to 00:00 of the next 1st in Panamá', () => {
    const parsed = parseReportMonth('2026-11', NOW);
    expect(parsed.ok && parsed.month.from.toISOString()).toBe('2026-11-01T05:00:00.000Z');
    expect(parsed.ok && parsed.month.before.toISOString()).toBe('2026-12-01T05:00:00.000Z');
  });

  it('takes December into the next year', () => {
    const parsed = parseReportMonth('2025-12', NOW);
    expect(parsed.ok && parsed.month.before.toISOString()).toBe('2026-01-01T05:00:00.000Z');
  });

  it('puts 23:30 in Panamá on the last day in that month, not the next', () => {
    const at = new Date('2026-12-01T04:30:00Z'); // 2026-11-30 23:30 in Panamá
    expect(panamaDate(at)).toBe('2026-11-30');
    expect(panamaMonthOf(at).month).toBe('2026-11');
    expect(panamaMonthOf(new Date('2026-12-01T05:00:00Z')).month).toBe('2026-12');
  });

  it('allows the current month and refuses one not begun in Panamá', () => {
    expect(parseReportMonth('2026-12', NOW).ok).toBe(true);
    expect(parseReportMonth('2027-01', NOW)).toEqual({ ok: false, error: '2027-01 has not begun yet (Panamá time)' });
    // 2026-12-01 03:00 UTC is still November in Panamá.
    expect(parseReportMonth('2026-12', new Date('2026-12-01T03:00:00Z')).ok).toBe(false);
  });

  it.each([
    ['2026-1', 'the month must be written YYYY-MM, e.g. 2026-11'],
    ['2026-13', 'the month must be from 01 to 12'],
    ['2026-00', 'the month must be from 01 to 12'],
    ['1999-12', 'the year must be from 2000 to 2999'],
    ['noviembre', 'the month must be written YYYY-MM, e.g. 2026-11'],
  ])('refuses %s', (text, error) => {
    expect(parseReportMonth(text, NOW)).toEqual({ ok: false, error });
  });

  it('names the previous month of a Panamá day', () => {
    expect(previousPanamaMonth(new Date('2026-12-01T05:00:00Z')).month).toBe('2026-11');
    expect(previousPanamaMonth(new Date('2026-12-01T04:59:59Z')).month).toBe('2026-10');
    expect(previousPanamaMonth(new Date('2027-01-01T06:00:00Z')).month).toBe('2026-12');
  });
});
