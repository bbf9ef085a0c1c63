import { readFile } from 'node:fs/promises';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import YAML from 'yaml';

const marked = new Marked({ gfm: true, breaks: false });

/** Tags and attributes an article or page body may keep; everything else is dropped. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2', 'h3', 'h4', 'p', 'br', 'hr', 'blockquote', 'ul', 'ol', 'li', 'strong', 'em', 'del', 'code', 'pre',
    'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'figure', 'figcaption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Script and style contents are dropped with their tags, not shown as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript'],
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:\/\//.test(attribs.href ?? '');
      return {
        tagName,
        attribs: external ? { ...attribs, rel: 'noopener noreferrer', target: '_blank' } : { ...attribs, rel: 'noopener' },
      };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
  },
};

export interface RenderOptions {
  /** Rewrites a relative image path (e.g. to the content's public URL). */
  resolveImage?: (src: string) => string;
  /** Intrinsic size of an image, so the page reserves its space before it loads. */
  imageSize?: (src: string) => { width: number; height: number } | undefined;
}

/** Markdown to sanitised HTML: no scripts, no event handlers, links with rel noopener, images sized. */
export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const raw = marked.parse(markdown, { async: false });
  return sanitizeHtml(raw, {
    ...SANITIZE,
    transformTags: {
      ...SANITIZE.transformTags,
      img: (tagName, attribs) => {
        const src = options.resolveImage ? options.resolveImage(attribs.src ?? '') : (attribs.src ?? '');
        const size = options.imageSize?.(src);
        return {
          tagName,
          attribs: {
            ...attribs,
            src,
            loading: 'lazy',
            decoding: 'async',
            ...(size ? { width: String(size.width), height: String(size.height) } : {}),
          },
        };
      },
    },
  });
}

/** Words (Latin) plus characters (CJK) per minute of reading, at least one minute. */
export function readingMinutes(markdown: string): number {
  const text = markdown.replace(/```[\s\S]*?```/g, ' ').replace(/[#>*_`[\]()!-]/g, ' ');
  const cjk = (text.match(/[\u3400-\u9fff]/g) ?? []).length;
  const words = text.replace(/[\u3400-\u9fff]/g, ' ').split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.round(words / 220 + cjk / 400));
}

/** Splits a Markdown file into its YAML front matter and its body. */
export async function readFrontMatterFile(file: string): Promise<{ data: unknown; body: string }> {
  const text = await readFile(file, 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { data: undefined, body: text };
  return { data: YAML.parse(match[1]!), body: match[2]! };
}
