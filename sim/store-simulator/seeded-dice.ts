// Seeded dice for the simulator's injected faults: the same seed gives the same run. mulberry32, a small
// well-known PRNG; never for secrets. The simulator's own copy, so it needs nothing from the app.
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
