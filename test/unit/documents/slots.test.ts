// Slots: at most N tasks at once, the rest served in order of arrival, a slot freed even when a task fails.
import { describe, expect, it } from 'vitest';
import { Slots } from '../../../src/slots.ts';

describe('slots', () => {
  it('runs at most 2 of 6 tasks at once and starts the waiting ones in arrival order', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
        return i * 10;
      }),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    expect(started).toEqual([0, 1]);
    // Finish the second first: the third (not a later one) takes its slot.
    release[1]!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    while (release.length < 6) {
      release[release.length - 1]!();
      await settle();
    }
    release.forEach((r) => r());
    expect(await Promise.all(tasks)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('gateway down')))).rejects.toThrow('gateway down');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
