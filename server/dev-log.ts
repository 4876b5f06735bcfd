/**
 * What `npm run dev` prints when it refuses a metadata change (a migration refused, an app that
 * will not build): a paragraph a developer reads in the terminal, with real line breaks and the
 * ready-to-paste fixes on lines of their own, instead of a JSON log line whose message escapes them.
 */
export function refusalParagraph(head: string, message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0);
  return `\n${head}\n${lines.map((l) => `  ${l}`).join('\n')}\n\n`;
}
