// The document's declared moves: statuses by STATUS_MOVES, steps only forward (send → pdf → writeback → done).
import { describe, expect, it } from 'vitest';
import { DOCUMENT_STEPS, isStepForward } from '../../../src/db/document-state.ts';

describe('isStepForward', () => {
  it('lets a step go only to a later one: never back, never to itself', () => {
    const forward = DOCUMENT_STEPS.flatMap((from) => DOCUMENT_STEPS.filter((to) => isStepForward(from, to)).map((to) => `${from}→${to}`));
    expect(forward).toEqual(['send→pdf', 'send→writeback', 'send→done', 'pdf→writeback', 'pdf→done', 'writeback→done']);
  });
});
