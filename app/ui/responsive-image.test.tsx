import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { imageSrcSet, ResponsiveImage } from './responsive-image.tsx';

describe('responsive image', () => {
  it('offers densities 1 and 2 as WebP at quality 85 for raster images', () => {
    expect(imageSrcSet('/games/x/shot.png', 320)).toBe('/_img/w_320,q_85,f_webp/games/x/shot.png 1x, /_img/w_640,q_85,f_webp/games/x/shot.png 2x');
  });

  it('offers the screen widths up to twice the shown width with sizes', () => {
    expect(imageSrcSet('/uploads/a.jpg', 480, '50vw')).toBe(
      ['320', '480', '640', '768', '960'].map((w) => `/_img/w_${w},q_85,f_webp/uploads/a.jpg ${w}w`).join(', '),
    );
  });

  it('offers our SVG as WebP (a browser builds a document for every SVG image)', () => {
    expect(imageSrcSet('/games/x/thumb.svg', 320)).toBe('/_img/w_320,q_85,f_webp/games/x/thumb.svg 1x, /_img/w_640,q_85,f_webp/games/x/thumb.svg 2x');
  });

  it("leaves other sites' images alone, but always sets width, height and lazy loading", () => {
    expect(imageSrcSet('https://example.com/a.svg', 320)).toBeUndefined();
    expect(imageSrcSet('https://example.com/a.png', 320)).toBeUndefined();
    const html = renderToStaticMarkup(<ResponsiveImage src="https://example.com/a.svg" width={320} height={240} />);
    expect(html).toBe('<img src="https://example.com/a.svg" width="320" height="240" alt="" loading="lazy" decoding="async"/>');
    const priority = renderToStaticMarkup(<ResponsiveImage src="/games/x/a.png" width={320} height={240} priority alt="A" />);
    expect(priority).toContain('loading="eager"');
    expect(priority).toContain('srcSet="/_img/w_320,q_85,f_webp/games/x/a.png 1x');
  });
});
