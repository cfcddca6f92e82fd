// The bench's CPU profile of the Worker, summed per function: own time, time with callees (a recursion counted
// once), per request, idle left out.
import { describe, expect, it } from 'vitest';
import { type CpuProfile, timePerFunction } from '../../local/bench/worker-profile';

const frame = (functionName: string, lineNumber = 0) => ({ functionName, url: functionName.startsWith('(') ? '' : 'file:///bundle/index.js', lineNumber });

// (root) → handle → build → build (recursing) ; handle → log ; (root) → (idle)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 6] },
    { id: 2, callFrame: frame('handle', 9), children: [3, 5] },
    { id: 3, callFrame: frame('build', 19), children: [4] },
    { id: 4, callFrame: frame('build', 19) },
    { id: 5, callFrame: frame('log', 29) },
    { id: 6, callFrame: frame('(idle)') },
  ],
  samples: [2, 3, 4, 4, 5, 6, 6],
  timeDeltas: [100, 200, 300, 300, 100, 5000, 5000],
};

describe("the Worker's CPU profile per function", () => {
  it('sums own time and time with callees per request, counting a recursion once and leaving idle out', () => {
    const { cpuUsPerRequest, functions } = timePerFunction(profile, 2);
    expect(cpuUsPerRequest).toBe(500);
    const byName = Object.fromEntries(functions.map((fn) => [fn.name, { self: fn.selfUs, total: fn.totalUs }]));
    expect(byName).toEqual({
      'handle index.js:10': { self: 50, total: 500 },
      'build index.js:20': { self: 400, total: 400 },
      'log index.js:30': { self: 50, total: 50 },
    });
  });
});
