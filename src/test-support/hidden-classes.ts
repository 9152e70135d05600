import { setFlagsFromString } from 'node:v8';

// V8's own answer to "do these two objects have one hidden class": functions compiled after the flag is set.
setFlagsFromString('--allow-natives-syntax');

export const haveSameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Objects in dictionary mode can share one normalised hidden class: a shared one must also be a fast one. */
export const hasFastProperties = new Function('a', 'return %HasFastProperties(a)') as (a: object) => boolean;
