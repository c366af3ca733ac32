/** Positions, ranges and edits in a SKILL.md's text: the skill module's own vocabulary, used by the parser, the rules and the editor. */

/** A place in the text: 1-based line and column (UTF-16 units), 0-based offset into the string. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

/** A half-open span of the text [start, end). */
export interface Range {
  start: Position;
  end: Position;
}

/** Replace text[start, end) with newText (offsets into the original string). */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}
