/**
 * Which words of a fixed list a text holds, in one pass over the text whatever the number of
 * words (an Aho–Corasick automaton): the phrase rules' prefilter (instructions.ts). Words are
 * printable ASCII, or characters of other scripts (Cyrillic, Chinese, Japanese …); letters match
 * in either case, as a pattern with the `i` flag (and no `u` flag) matches them: such a pattern
 * matches a character with exactly those whose upper case is its upper case, and never an ASCII
 * letter with any other character, so a match of it holds its words exactly as this scan finds
 * them. A character whose other case is ASCII (ſ, K) is refused: the pattern would not match it.
 */

/** A scanner for `words` (printable ASCII, matched with ASCII letters in either case). */
export class WordScan {
  /** Character code (0–127) → class; 0: a character no word holds. */
  readonly #classOf = new Uint8Array(128);
  /** Code unit (128–0xFFFF) → class, when a word holds a character beyond ASCII. */
  readonly #wideOf: Uint16Array | undefined;
  readonly #classes: number;
  /**
   * (state × classes + class) → the next state's row (its state × classes), times two, plus one
   * when words end in that state: one load per character.
   */
  readonly #next: Int32Array;
  /** Per state, the ids of the words that end there: `#out[#outStart[s] .. #outStart[s + 1]]`. */
  readonly #outStart: Uint32Array;
  readonly #out: Uint16Array;

  constructor(readonly words: readonly string[]) {
    let classes = 1;
    /** Upper case of a character beyond ASCII → its class. */
    const wide = new Map<string, number>();
    for (const w of words) {
      if (w === '') throw new Error('An empty word cannot be looked for.');
      for (let i = 0; i < w.length; i++) {
        const c = fold(w.charCodeAt(i));
        if (c >= 128) {
          const upper = wideKey(w[i] ?? '');
          if (upper === undefined)
            throw new Error(`Not a word this scan can find: ${JSON.stringify(w)}`);
          if (!wide.has(upper)) wide.set(upper, classes++);
          continue;
        }
        if (c < 32) throw new Error(`Not a printable ASCII word: ${JSON.stringify(w)}`);
        if (this.#classOf[c] === 0) {
          this.#classOf[c] = classes++;
          // The other case of a letter is the same class.
          if (c >= 97 && c <= 122) this.#classOf[c - 32] = this.#classOf[c];
        }
      }
    }
    this.#classes = classes;
    if (wide.size > 0) {
      // Why every code unit: a pattern's `i` flag matches each one whose upper case is the
      // word's, and a table makes the scan one load per character.
      const wideOf = new Uint16Array(0x10000);
      for (let c = 128; c < 0x10000; c++) {
        const upper = wideKey(String.fromCharCode(c));
        const k = upper === undefined ? undefined : wide.get(upper);
        if (k !== undefined) wideOf[c] = k;
      }
      this.#wideOf = wideOf;
    }
    // The trie: goto[state][class], 0 = none (the root is state 0 and never a target).
    const goto: number[][] = [new Array<number>(classes).fill(0)];
    const ends: number[][] = [[]];
    words.forEach((w, id) => {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const c = fold(w.charCodeAt(i));
        const k = c < 128 ? this.#classOf[c] : (this.#wideOf?.[c] ?? 0);
        const row = goto[s];
        if (row[k] === 0) {
          row[k] = goto.length;
          goto.push(new Array<number>(classes).fill(0));
          ends.push([]);
        }
        s = row[k];
      }
      ends[s].push(id);
    });
    if (goto.length > 0xffff) throw new Error('Too many words for one scanner.');
    // Breadth first: failure links, and every missing move made to follow them.
    const fail = new Array<number>(goto.length).fill(0);
    const next = new Uint16Array(goto.length * classes);
    const queue: number[] = [];
    for (let k = 0; k < classes; k++) {
      const t = goto[0][k];
      next[k] = t;
      if (t !== 0) queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      const f = fail[s];
      ends[s].push(...ends[f]);
      for (let k = 0; k < classes; k++) {
        const t = goto[s][k];
        if (t !== 0) {
          fail[t] = next[f * classes + k];
          next[s * classes + k] = t;
          queue.push(t);
        } else next[s * classes + k] = next[f * classes + k];
      }
    }
    const ending = (t: number): number => (ends[t].length > 0 ? 1 : 0);
    this.#next = Int32Array.from(next, (t) => ((t * classes) << 1) | ending(t));
    this.#outStart = new Uint32Array(goto.length + 1);
    const out: number[] = [];
    for (let s = 0; s < goto.length; s++) {
      this.#outStart[s] = out.length;
      out.push(...new Set(ends[s]));
    }
    this.#outStart[goto.length] = out.length;
    this.#out = Uint16Array.from(out);
  }

  /** Set `found[id]` to 1 for every word of the list that `text` holds (others are left as they are). */
  scan(text: string, found: Uint8Array): void {
    const classOf = this.#classOf;
    const wideOf = this.#wideOf;
    const next = this.#next;
    const outStart = this.#outStart;
    const out = this.#out;
    const classes = this.#classes;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const v = next[row + (c < 128 ? classOf[c] : wideOf !== undefined ? wideOf[c] : 0)];
      row = v >> 1;
      if ((v & 1) === 0) continue;
      const s = (row / classes) | 0;
      const to = outStart[s + 1];
      for (let j = outStart[s]; j < to; j++) found[out[j]] = 1;
    }
  }
}

/** An ASCII capital to its small letter; any other code unchanged. */
function fold(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/**
 * The upper case of one character beyond ASCII, as a pattern's `i` flag compares it; undefined
 * when that is ASCII or not one code unit (the flag then compares the character as it is, which
 * this scan cannot tell from the upper case).
 */
function wideKey(ch: string): string | undefined {
  const upper = ch.toUpperCase();
  if (upper.length !== 1) return ch.length === 1 ? ch : undefined;
  return upper.charCodeAt(0) < 128 ? undefined : upper;
}
