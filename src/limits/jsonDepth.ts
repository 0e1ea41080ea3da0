// How deeply a JSON body may nest arrays and objects. The deepest body the API takes is a GraphQL
// request whose variables hold an input object (4 levels); 64 is far past any legitimate request,
// and shallow enough that nothing that walks a value recursively (graphql-js, JSON.stringify, the
// logger) can run out of stack on it.
export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP = `The body's JSON nests deeper than the limit of ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text nests deeper than `max`, told from the text before it is parsed (one pass, no
 * allocation; brackets inside strings do not count). Malformed text is the parser's to refuse.
 */
export function jsonNestsTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}
