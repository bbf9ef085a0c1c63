import { useEffect } from 'react';
import { useRootData } from '../../shell/root-data.ts';
import { ConsentBanner } from './consent-banner.tsx';
import { startPixel } from './pixel.ts';

/** Tracking on every page, when a pixel is configured: the consent choice until it is made, and the pixel where it applies (decision 065). */
export function TrackingRuntime() {
  const pixelId = useRootData()?.pixelId ?? null;
  useEffect(() => {
    if (pixelId) startPixel(pixelId);
  }, [pixelId]);
  return pixelId ? <ConsentBanner /> : null;
}
