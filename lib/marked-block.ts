// A block of a markdown file that `npm run generate` writes: the text between two HTML comments,
// which render as nothing, made anew while the prose around it stays as written.

/** `doc` with the text between `begin` and `end` replaced by `block`; `file` names the doc in the error. */
export function withMarkedBlock(
  doc: string,
  file: string,
  begin: string,
  end: string,
  block: string,
): string {
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the markers ${begin} … ${end}`);
  return `${doc.slice(0, from + begin.length)}\n${block}\n${doc.slice(to)}`;
}
