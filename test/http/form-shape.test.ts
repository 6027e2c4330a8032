// The raw-text scan of form bodies (src/http/plugins/form-shape.ts) at each bound's edge, and the
// keys it must read exactly as `qs` reads them. The same bodies through a server process, with
// their answers and /healthz, are in test/server/hostile-form-bodies.test.ts.
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { type FormLimits, formShapeProblem } from '../../src/http/plugins/form-shape.ts';

const LIMITS: FormLimits = { parameters: 20_000, segments: 10_000, depth: 32, members: 1_000, arrayIndex: 500 };
const many = (count: number, part: (i: number) => string) => Array.from({ length: count }, (_, i) => part(i)).join('&');
const kind = (text: string) => formShapeProblem(text, LIMITS)?.kind ?? null;

describe('form body shape scan', () => {
  it('each bound passes at its edge and refuses one past it', () => {
    expect(kind(many(20_000, () => 'a[]=1'))).toBe('segments');
    expect(kind(many(20_001, () => ''))).toBe('parameters');
    expect(kind(many(500, (i) => `a[${i}][b]=1&a[${i}][c]=1&a[${i}][d]=1&a[${i}][e]=1&a[${i}][f]=1`))).toBe(null);
    expect(kind(many(5_000, (i) => `a[${i % 500}][k${Math.floor(i / 500)}]=1`))).toBe(null);
    expect(kind(`${many(5_000, (i) => `a[${i % 500}][k${Math.floor(i / 500)}]=1`)}&z[y]=1`)).toBe('segments');
    expect(kind(`a${'[b]'.repeat(32)}=1`)).toBe(null);
    expect(kind(`a${'[b]'.repeat(33)}=1`)).toBe('depth');
    expect(kind(many(1_000, (i) => `k${i}=1`))).toBe(null);
    expect(kind(many(1_001, (i) => `k${i}=1`))).toBe('members');
    expect(kind(many(1_000, (i) => `a[k${i}]=1`))).toBe(null);
    expect(kind(many(1_001, (i) => `a[k${i}]=1`))).toBe('members');
    expect(kind('a[499]=1')).toBe(null);
    expect(kind('a[500]=1')).toBe('list');
  });

  it('refuses every spelling of a key qs would drop, as qs splits it', () => {
    const spellings = [
      '__proto__=1',
      '__proto__[x]=1',
      '[__proto__]=1',
      'a[__proto__]=1',
      'a[b][__proto__][c]=1',
      'x=[__proto__][polluted]=1',
      'x=%5B__proto__%5D=1',
      'a%5B__proto__%5D=1',
      'a%5b__proto__%5d=1',
      '%5F%5Fproto%5F%5F=1',
      'a[%5F%5Fproto%5F%5F]=1',
      '__proto__',
      'constructor[prototype]=1',
      'a[constructor]=1',
      'a[prototype]=1',
      'hasOwnProperty=1',
      'a[toString]=1',
    ];
    for (const spelling of spellings) {
      // What qs itself does with it: drops the parameter (or, for `prototype`, keeps it as a name).
      const problem = formShapeProblem(`ok=1&${spelling}`, LIMITS);
      expect(problem?.kind, spelling).toBe('forbidden');
    }
    // Left whole by qs (no allowDots; a group left open, a bracket inside a group): plain names.
    for (const literal of ['a.__proto__=1', 'a[__proto__=1', 'a[b[__proto__]]=1']) {
      expect(formShapeProblem(literal, LIMITS), literal).toBe(null);
      expect(Object.getPrototypeOf(qs.parse(literal, { depth: 32, allowPrototypes: false }))).toBe(Object.prototype);
    }
  });

  it('a field given twice is named, however its key is spelled; lists are lists', () => {
    const twice = (text: string) => {
      const problem = formShapeProblem(text, LIMITS);
      return problem?.kind === 'duplicate' ? problem.path : problem;
    };
    expect(twice('amount=1.00&amount=99999999.99')).toBe('amount');
    expect(twice('checks[0][amount]=1&checks[0][amount]=2')).toBe('checks.0.amount');
    expect(twice('checks[0][amount]=1&checks%5B0%5D%5Bamount%5D=2')).toBe('checks.0.amount');
    expect(twice('checks[0][amount]=1&[checks][0][amount]=2')).toBe('checks.0.amount');
    expect(twice('checks[0][amount]=1&checks[0][%61mount]=2')).toBe('checks.0.amount');
    expect(twice('checks[][amount]=1&checks[][amount]=2')).toBe('checks.0.amount');
    expect(twice('a=1&a[b]=2')).toBe('a');
    expect(twice('a[b]=2&a=1')).toBe('a');
    for (const list of ['a[]=1&a[]=2', 'a[0]=1&a[1]=2', 'a[][b]=1&a[][c]=2', 'a[0][b]=1&a[1][b]=2', 'a[0]=1&a[00]=2'])
      expect(twice(list), list).toBe(null);
  });

  it('is linear: the deepest 2 MB body stops at the bracket bound after a few hundred keys', () => {
    const deepest = many(19_999, (i) => `k${i}${'[0]'.repeat(31)}=1`);
    expect(deepest.length).toBeGreaterThan(2_000_000);
    expect(kind(deepest)).toBe('segments');
    expect(kind(many(19_999, (i) => `k${i}=1`))).toBe('members');
  });
});
