/** The rows of docs/architecture.md's "Tables and their owners": table → owning feature and whether it holds personal data. */
export function documentedOwners(markdown: string): Map<string, { owner: string; personal: string }> {
  const section = markdown.split('## Tables and their owners')[1]?.split('\n## ')[0] ?? '';
  const owners = new Map<string, { owner: string; personal: string }>();
  for (const match of section.matchAll(/^\| `([a-z_]+)` \| ([^|]+?) \| [^|]+ \| ([^|]+?) \|$/gm))
    owners.set(match[1]!, { owner: match[2]!, personal: match[3]! });
  return owners;
}
