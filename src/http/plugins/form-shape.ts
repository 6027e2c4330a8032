// The shape of a form-encoded body, measured on the raw text in one pass before `qs` reads it
// (form-body.ts). `qs` is a maintained parser but not a cheap one: every key becomes a chain of
// objects that is merged into the result, and a merge into an array counts the array's elements
// each time, so its cost grows with the brackets of all keys and with the lists they land in. A
// 2 MB body of 19,999 keys each 31 brackets deep held the event loop for over a second inside
// `qs.parse`, where the same keys as JSON were refused in milliseconds. Every bound is therefore
// checked here, on the keys exactly as `qs` will split them, so a hostile body costs this scan
// (stopped at its first problem), never the parse.
//
// Mirroring `qs` (6.x, with the options of form-body.ts) is the point: a screen that splits keys
// differently from the parser can be walked past. So, as `qs` does:
// - `%5B` and `%5D` become brackets in the whole text first;
// - a parameter's key ends at its first `]=`, else at its first `=`; keys and values are then
//   percent-decoded (`+` is a space);
// - a key is its text before the first `[`, then balanced bracket groups (`a[b[c]]` is `a` and
//   `b[c]`); a group left open takes the rest of the key as one literal segment;
// - `[n]` is a list index when `n` is a plain non-negative decimal, `[]` at the end appends, and
//   `[]` before further groups lands on item 0 (that is where `qs` merges it).

export interface FormLimits {
  /** Parameters (`&`-separated parts), counted before anything else. */
  parameters: number;
  /** Bracket groups of all keys together. */
  segments: number;
  /** Bracket groups of one key. */
  depth: number;
  /** Distinct members of one object or list. */
  members: number;
  /** A list index must be below this (`qs`'s `arrayLimit`). */
  arrayIndex: number;
}

export type FormProblem =
  | { kind: 'parameters' | 'segments' | 'depth' | 'members' | 'list' | 'encoding' }
  /** A segment `qs` would silently drop (a name of Object.prototype), or `prototype`. */
  | { kind: 'forbidden'; segment: string }
  /** One field given twice (or as a value and as a list/object): `qs` would keep the last. */
  | { kind: 'duplicate'; path: string };

/** Names `qs` drops a whole parameter for (it will not shadow Object.prototype), and `prototype`. */
const FORBIDDEN = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

const INDEX = /^(0|[1-9][0-9]*)$/;

function duplicate(path: readonly (string | null)[], upTo: number): FormProblem {
  return {
    kind: 'duplicate',
    path: path
      .slice(0, upTo + 1)
      .map((s) => s ?? '0')
      .join('.'),
  };
}

/**
 * The first problem of a form body's shape under `limits`, or null. Linear in the text: each
 * parameter is split and decoded once, and the scan stops at the first bound passed.
 */
export function formShapeProblem(text: string, limits: FormLimits): FormProblem | null {
  let parameters = 0;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    parameters += 1;
    if (parameters >= limits.parameters) return { kind: 'parameters' };
  }

  // First every key on its own (the counts that stop the worst bodies soonest), then the keys together.
  const paths: (string | null)[][] = [];
  // The body's own members (top-level names) are counted here already: the widest bodies stop soon.
  const roots = new Set<string>();
  let segmentsSeen = 0;

  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    // `qs` turns %5B and %5D into brackets in the whole text before splitting it at `&`; doing it
    // a parameter at a time is the same (neither is `&`), and a refused body is not read to its end.
    const raw = text.slice(start, end);
    const part = raw.includes('%') ? raw.replace(/%5B/gi, '[').replace(/%5D/gi, ']') : raw;
    start = end + 1;
    if (part === '') continue;
    const bracketEquals = part.indexOf(']=');
    const pos = bracketEquals === -1 ? part.indexOf('=') : bracketEquals + 1;
    const key = decode(pos === -1 ? part : part.slice(0, pos));
    if (key === null || (pos !== -1 && decode(part.slice(pos + 1)) === null)) return { kind: 'encoding' };
    // `qs` ignores a parameter with an empty key.
    if (key === '') continue;

    // The key's segments as `qs` splits them; null stands for an appending `[]`.
    const path: (string | null)[] = [];
    const first = key.indexOf('[');
    const parent = first === -1 ? key : key.slice(0, first);
    if (parent !== '') {
      if (FORBIDDEN.has(parent)) return { kind: 'forbidden', segment: parent };
      path.push(parent);
    }
    let open = first;
    let groups = 0;
    while (open !== -1) {
      let level = 1;
      let close = -1;
      for (let i = open + 1; i < key.length; i++) {
        const c = key.charCodeAt(i);
        if (c === 0x5b) level += 1;
        else if (c === 0x5d && --level === 0) {
          close = i;
          break;
        }
      }
      groups += 1;
      if (groups > limits.depth) return { kind: 'depth' };
      segmentsSeen += 1;
      if (segmentsSeen > limits.segments) return { kind: 'segments' };
      if (close === -1) {
        // Left open: the rest of the key is one literal segment (`qs` does not guard it, nor need we).
        path.push(key.slice(open));
        break;
      }
      const content = key.slice(open + 1, close);
      if (FORBIDDEN.has(content)) return { kind: 'forbidden', segment: content };
      if (INDEX.test(content) && Number(content) >= limits.arrayIndex) return { kind: 'list' };
      path.push(content === '' ? null : content);
      open = key.indexOf('[', close + 1);
    }
    const root = path[0];
    if (typeof root === 'string' && roots.add(root).size > limits.members) return { kind: 'members' };
    paths.push(path);
  }
  return treeProblem(paths, limits.members);
}

/**
 * Members per object or list, and fields given twice, over the keys' paths together. The tree of
 * keys is kept as integer nodes in one map (parent node and segment to child node), so no key
 * prefix is ever rebuilt.
 */
function treeProblem(paths: readonly (readonly (string | null)[])[], maxMembers: number): FormProblem | null {
  // Node 0 is the body itself.
  const children = new Map<string, number>();
  const members: number[] = [0];
  const valued: boolean[] = [false];
  const branched: boolean[] = [false];
  for (const path of paths) {
    let node = 0;
    for (let i = 0; i < path.length; i++) {
      const last = i === path.length - 1;
      // An appending `[]` is a new member every time; before further groups it is item 0.
      const segment = path[i] ?? (last ? null : '0');
      const name = segment === null ? '' : `${node}\u0000${segment}`;
      let next = segment === null ? undefined : children.get(name);
      if (next === undefined) {
        members[node] = (members[node] ?? 0) + 1;
        if ((members[node] ?? 0) > maxMembers) return { kind: 'members' };
        next = members.length;
        members.push(0);
        valued.push(false);
        branched.push(false);
        if (segment !== null) children.set(name, next);
      }
      node = next;
      // A value where there is already one, or a list/object; or a list/object over a value.
      if (valued[node] === true || (last && branched[node] === true)) return duplicate(path, i);
      if (last) valued[node] = true;
      else branched[node] = true;
    }
  }
  return null;
}
