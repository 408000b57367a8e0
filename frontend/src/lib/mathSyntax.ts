// TeX math in chat Markdown: a micromark extension (the tokenizer under
// react-markdown) and its mdast-util-from-markdown counterpart, added with
// the remark plugin remarkMath. remark-math is not used: it knows only the
// dollar forms, treats "$5 and $10" as math, and renders `$$x$$` inside a
// paragraph inline.
//
//   $…$    inline: no space after the opening $ nor before the closing $,
//          and no digit right after the closing $ (so prices stay text)
//   \(…\)  inline
//   $$…$$  display (may span lines of a paragraph)
//   \[…\]  display (may span lines of a paragraph)
//
// The constructs are inline ("text") constructs: code spans and code blocks
// are tokenized first, so math inside them stays code, and an unclosed
// opener (a message still streaming) is plain text until its closer comes.
// Inside math, a backslash and the character after it go together, so \$
// and \\ never close anything.
import { asciiDigit, markdownLineEnding, markdownLineEndingOrSpace } from 'micromark-util-character';
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from 'micromark-util-types';
import type { CompileContext, Extension as FromMarkdownExtension, Token } from 'mdast-util-from-markdown';
import type { Literal } from 'mdast';

/** A math node in the mdast tree (rendered by the `span[data-math]` component). */
export interface MathNode extends Literal {
  type: 'junctureMath';
  display: boolean;
}

declare module 'mdast' {
  interface PhrasingContentMap {
    junctureMath: MathNode;
  }
  interface RootContentMap {
    junctureMath: MathNode;
  }
}

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    junctureMath: 'junctureMath';
    junctureMathMarker: 'junctureMathMarker';
    junctureMathData: 'junctureMathData';
  }
}

const DOLLAR = 36;
const BACKSLASH = 92;
const LPAREN = 40;
const RPAREN = 41;
const LBRACKET = 91;
const RBRACKET = 93;

type Kind = 'dollar' | 'dollars' | 'paren' | 'bracket';

// The longest math source tried: an opener with no closer is scanned to the
// end of its paragraph at most this far, so a paragraph full of lone $ signs
// stays linear, and KaTeX is never handed a novel.
const MAX_CHARS: Record<Kind, number> = { dollar: 2000, paren: 2000, dollars: 10000, bracket: 10000 };

/** The closing sequence of each kind, tried with effects.attempt (reverted when it fails). */
const closers: Record<Kind, Construct> = {
  dollar: { partial: true, tokenize: closeDollar },
  dollars: { partial: true, tokenize: closeSequence(DOLLAR, DOLLAR) },
  paren: { partial: true, tokenize: closeSequence(BACKSLASH, RPAREN) },
  bracket: { partial: true, tokenize: closeSequence(BACKSLASH, RBRACKET) },
};

function closeDollar(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  return (code) => {
    effects.enter('junctureMathMarker');
    effects.consume(code);
    effects.exit('junctureMathMarker');
    // "$5-$10": a $ followed by a digit is a price, not the end of math.
    return (next) => (asciiDigit(next) ? nok(next) : ok(next));
  };
}

function closeSequence(first: number, second: number) {
  return function tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    const end: State = (code) => {
      if (code !== second) return nok(code);
      effects.consume(code);
      effects.exit('junctureMathMarker');
      return ok;
    };
    return (code) => {
      if (code !== first) return nok(code);
      effects.enter('junctureMathMarker');
      effects.consume(code);
      return end;
    };
  };
}

/**
 * The states after the opening marker, up to and including the closing one,
 * shared by all kinds. `open` has consumed the opener and exited its marker.
 */
function body(effects: Effects, ok: State, nok: State, kind: Kind): State {
  let size = 0;
  let prev: Code = null; // the last content character (for the $ closing rule)
  let solid = false; // saw something other than white space
  let inData = false;

  const enterData = () => {
    if (!inData) effects.enter('junctureMathData');
    inData = true;
  };
  const exitData = () => {
    if (inData) effects.exit('junctureMathData');
    inData = false;
  };
  const take = (code: Code) => {
    enterData();
    effects.consume(code);
    size++;
    prev = code;
    if (!markdownLineEndingOrSpace(code)) solid = true;
  };

  const done: State = (code) => {
    if (!solid) return nok(code); // `$$ $$`, `\(\)`: nothing to typeset
    effects.exit('junctureMath');
    return ok(code);
  };
  const notClosed: State = (code) => {
    // The would-be closer is content: a $ in $$…$$, a \ starting a command.
    take(code);
    return code === BACKSLASH ? escaped : content;
  };
  const escaped: State = (code) => {
    if (code === null || markdownLineEnding(code)) return content(code);
    take(code);
    return content;
  };
  const content: State = (code) => {
    if (code === null || size > MAX_CHARS[kind]) return nok(code);
    if (markdownLineEnding(code)) {
      exitData();
      effects.enter('lineEnding');
      effects.consume(code);
      effects.exit('lineEnding');
      prev = code;
      return content;
    }
    const closerStart = kind === 'dollar' || kind === 'dollars' ? code === DOLLAR : code === BACKSLASH;
    // "$5 and $10": a $ after white space does not close.
    if (closerStart && !(kind === 'dollar' && markdownLineEndingOrSpace(prev))) {
      exitData();
      return effects.attempt(closers[kind], done, notClosed)(code);
    }
    take(code);
    return code === BACKSLASH ? escaped : content;
  };
  return content;
}

function tokenizeDollar(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const afterFirst: State = (code) => {
    if (code === DOLLAR) {
      effects.consume(code);
      effects.exit('junctureMathMarker');
      return (next) => (next === DOLLAR ? nok(next) : body(effects, ok, nok, 'dollars')(next));
    }
    effects.exit('junctureMathMarker');
    // "$ 5", a $ at the end of a line: not math.
    if (code === null || markdownLineEndingOrSpace(code)) return nok(code);
    return body(effects, ok, nok, 'dollar')(code);
  };
  return (code) => {
    effects.enter('junctureMath');
    effects.enter('junctureMathMarker');
    effects.consume(code);
    return afterFirst;
  };
}

function tokenizeBackslash(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
  const second: State = (code) => {
    if (code !== LPAREN && code !== LBRACKET) return nok(code);
    effects.consume(code);
    effects.exit('junctureMathMarker');
    return body(effects, ok, nok, code === LPAREN ? 'paren' : 'bracket');
  };
  return (code) => {
    effects.enter('junctureMath');
    effects.enter('junctureMathMarker');
    effects.consume(code);
    return second;
  };
}

const dollar: Construct = {
  name: 'junctureMathDollar',
  tokenize: tokenizeDollar,
  // The second $ of a "$$" that was not math is not an opener either.
  previous: (code) => code !== DOLLAR,
};

// Tried before the character escape (extension constructs come first), so
// "\(" is math and not an escaped parenthesis.
const backslash: Construct = { name: 'junctureMathBackslash', tokenize: tokenizeBackslash };

export const mathSyntax: Extension = { text: { [DOLLAR]: dollar, [BACKSLASH]: backslash } };

export const mathFromMarkdown: FromMarkdownExtension = {
  enter: {
    junctureMath(this: CompileContext, token: Token) {
      const node: MathNode = { type: 'junctureMath', value: '', display: false };
      this.enter(node, token);
      this.buffer(); // data and line endings collect in a fragment
    },
  },
  exit: {
    junctureMathData(this: CompileContext, token: Token) {
      this.config.enter.data!.call(this, token);
      this.config.exit.data!.call(this, token);
    },
    junctureMath(this: CompileContext, token: Token) {
      const value = this.resume();
      const node = this.stack[this.stack.length - 1] as MathNode;
      this.exit(token);
      const open = this.sliceSerialize(token).slice(0, 2);
      node.value = value;
      node.display = open === '$$' || open === '\\[';
      // mdast → hast: a span the Markdown component renders with KaTeX.
      node.data = {
        hName: 'span',
        hProperties: { dataMath: node.display ? 'display' : 'inline' },
        hChildren: [{ type: 'text', value }],
      };
    },
  },
};

interface ParserData {
  micromarkExtensions?: Extension[];
  fromMarkdownExtensions?: FromMarkdownExtension[];
}

/** remark plugin: parse the math forms above into `junctureMath` nodes. */
export function remarkMath(this: { data(): unknown }): void {
  const data = this.data() as ParserData;
  (data.micromarkExtensions ??= []).push(mathSyntax);
  (data.fromMarkdownExtensions ??= []).push(mathFromMarkdown);
}
