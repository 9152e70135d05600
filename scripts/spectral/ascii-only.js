// A Spectral function (.spectral.yaml, ascii-only): every key and string of the document, at any depth, is ASCII.
const NON_ASCII = /[\u0080-\uffff]/;

export default function asciiOnly(document) {
  const results = [];
  const visit = (value, path) => {
    if (typeof value === 'string') {
      if (NON_ASCII.test(value)) results.push({ message: `Non-ASCII character ${JSON.stringify(value.match(NON_ASCII)[0])} in a text`, path });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (NON_ASCII.test(key)) results.push({ message: `Non-ASCII character ${JSON.stringify(key.match(NON_ASCII)[0])} in a name`, path: [...path, key] });
      visit(child, [...path, key]);
    }
  };
  visit(document, []);
  return results;
}
