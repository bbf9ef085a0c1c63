/**
 * Links inside rendered Markdown are written without locale ("/app/snake"); on a page of
 * another locale they get its prefix. Protocol-relative and absolute links are left alone.
 */
export function localiseLinks(html: string, prefix: string): string {
  return prefix === '' ? html : html.replace(/href="\/(?!\/)/g, `href="${prefix}/`);
}
