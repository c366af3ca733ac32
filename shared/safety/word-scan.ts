/**
 * Which words of a fixed list a text holds, in one pass over the text whatever the number of
 * words (an Aho–Corasick automaton): the phrase rules' prefilter (instructions.ts). Words are
 * printable ASCII; ASCII letters match in either case, as a pattern with the `i` flag (and no
 * `u` flag) matches them: such a pattern never matches an ASCII letter with any other character,
 * so a match of it holds its words exactly as this scan finds them.
 */

/** A scanner for `words` (printable ASCII, matched with ASCII letters in either case). */
export class WordScan {
  /** Character code (0–127) → class; 0: a character no word holds. */
  readonly #classOf = new Uint8Array(128);
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
    for (const w of words) {
      if (w === '') throw new Error('An empty word cannot be looked for.');
      for (let i = 0; i < w.length; i++) {
        const c = fold(w.charCodeAt(i));
        if (c >= 128 || c < 32) throw new Error(`Not a printable ASCII word: ${JSON.stringify(w)}`);
        if (this.#classOf[c] === 0) {
          this.#classOf[c] = classes++;
          // The other case of a letter is the same class.
          if (c >= 97 && c <= 122) this.#classOf[c - 32] = this.#classOf[c];
        }
      }
    }
    this.#classes = classes;
    // The trie: goto[state][class], 0 = none (the root is state 0 and never a target).
    const goto: number[][] = [new Array<number>(classes).fill(0)];
    const ends: number[][] = [[]];
    words.forEach((w, id) => {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const k = this.#classOf[fold(w.charCodeAt(i))];
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
    const next = this.#next;
    const outStart = this.#outStart;
    const out = this.#out;
    const classes = this.#classes;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const v = next[row + (c < 128 ? classOf[c] : 0)];
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
