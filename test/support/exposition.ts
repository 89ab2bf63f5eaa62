// Prometheus's text exposition format 0.0.4, checked line by line, and a GET that reads any answer.
import { expect } from 'vitest';

const COMMENT = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*")(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*")*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/;

/** Exposition format 0.0.4: each line a HELP/TYPE comment, a sample or empty (prom-client puts one between metrics); TYPE once per metric, before its samples. */
export function checkExposition(text: string): Map<string, string> {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    const comment = COMMENT.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(types.has(comment[2]!), `TYPE ${comment[2]} twice`).toBe(false);
        expect(['counter', 'gauge', 'histogram']).toContain(comment[3]);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `not a sample line: ${line}`).not.toBeNull();
    const name = sample![1]!;
    const family = types.get(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(family), `${name} sampled before its TYPE`).toBe(true);
  }
  return types;
}

export async function get(url: string): Promise<{ status: number; body: unknown; text: string; type: string | null }> {
  const response = await fetch(url);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, type: response.headers.get('content-type') };
}
