/**
 * Which language a page starts in: the stored preference if it is supported, else the first of the
 * browser's languages that matches a supported one by its language part (zh-TW -> zh-CN), else the
 * fallback. One function for two callers: the app (i18nProvider.ts, resolveLocale) and the build,
 * which writes it into index.html as a small inline script (admin/preloadApp.ts) so that the
 * language's messages download beside the entry instead of after it. It therefore reads nothing
 * but its arguments and uses no helper (its source text is the script).
 */
export function pickLocale<L extends string>(
  stored: string | null,
  tags: readonly (string | null | undefined)[],
  supported: readonly L[],
  fallback: L | null,
): L | null {
  if (stored && (supported as readonly string[]).includes(stored)) return stored as L;
  for (const tag of tags) {
    if (!tag) continue;
    if ((supported as readonly string[]).includes(tag)) return tag as L;
    const lang = tag.toLowerCase().split('-')[0];
    const hit = supported.find((l) => l.toLowerCase().split('-')[0] === lang);
    if (hit) return hit;
  }
  return fallback;
}
